package atomicfile

import (
	"fmt"
	"os"
	"sync"
)

// The registry of this process's writes in progress, so that a signal
// handler can remove their temporary files before the process exits (a
// deferred Abort does not run when a handler calls os.Exit) and say which
// files were finished.
var reg = &registry{pending: map[*File]bool{}}

type registry struct {
	mu        sync.Mutex
	pending   map[*File]bool
	committed []string
	closed    bool
}

// create makes a temporary file and registers it in one step, so that a
// signal handler never sees a temporary file it does not know of.
func (r *registry) create(dir, pattern, dest string) (*File, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, fmt.Errorf("interrupted")
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	a := &File{f: f, dest: dest}
	r.pending[a] = true
	return a, nil
}

func (r *registry) remove(a *File) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.pending, a)
}

// rename puts a finished file in place, unless the process is being
// stopped (RemovePending ran): then the file is not published half-way
// through an interruption.
func (r *registry) rename(a *File) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return fmt.Errorf("interrupted")
	}
	if err := os.Rename(a.f.Name(), a.dest); err != nil {
		return err
	}
	delete(r.pending, a)
	r.committed = append(r.committed, a.dest)
	return nil
}

// RemovePending removes the temporary files of every write still in
// progress and refuses further commits; it returns the destinations that
// were not written and those that were (committed by this process). A
// signal handler calls it just before exiting.
func RemovePending() (unfinished, finished []string) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	reg.closed = true
	for a := range reg.pending {
		a.f.Close()
		os.Remove(a.f.Name())
		unfinished = append(unfinished, a.dest)
	}
	reg.pending = map[*File]bool{}
	return unfinished, append([]string(nil), reg.committed...)
}
