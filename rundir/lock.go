package rundir

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrLocked is what Lock returns when another process is training the run.
var ErrLocked = errors.New("another process is training this run (it holds the run directory's lock): wait for it to stop or stop it; a second training would overwrite its checkpoints and metrics")

// ErrNoLocks is what Lock returns, with a lock that holds nothing, where
// the run directory's file system keeps no locks: training goes on, but a
// second training of the run would not be refused.
var ErrNoLocks = errors.New("the run directory's file system keeps no locks, so a second training of this run would not be refused")

// DirLock is a training process's hold on its run directory: an advisory
// lock on the directory itself (no file is added to the run), which the
// system releases when the process ends however it ends, so a killed
// training never leaves a stale lock. Where the system has no such locks
// (not unix), it holds nothing.
type DirLock struct{ f *os.File }

// Lock takes dir's lock for a training, creating dir if it does not exist
// yet; it fails with ErrLocked while another process (or another Lock in
// this one) holds it, and returns ErrNoLocks with a lock that holds
// nothing where the file system keeps no locks.
func Lock(dir string) (*DirLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := lockSoon(f); err != nil {
		f.Close()
		switch {
		case errors.Is(err, ErrNoLocks):
			return &DirLock{}, fmt.Errorf("%s: %w", dir, err)
		case errors.Is(err, ErrLocked):
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		return nil, fmt.Errorf("%s: locking the run directory: %w", dir, err)
	}
	return &DirLock{f}, nil
}

// lockSoon tries the lock a few times over about 100 ms: Locked (strata
// status) holds it for an instant when it finds it free, which must not
// refuse a training that starts in that instant.
func lockSoon(f *os.File) error {
	for i := 0; ; i++ {
		err := tryLock(f)
		if !errors.Is(err, ErrLocked) || i == 4 {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Unlock releases the lock (nil-safe).
func (l *DirLock) Unlock() {
	if l != nil && l.f != nil {
		l.f.Close() // closing the descriptor releases its lock
		l.f = nil
	}
}

// Locked reports whether a process is training the run in dir now, that
// is holds its lock (found free, the lock is held for an instant, which
// Lock waits out).
func Locked(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	return errors.Is(tryLock(f), ErrLocked)
}
