// Package atomicfile writes files so that a reader never sees a half-written
// one: data goes to a temporary file in the same directory, is synced, and is
// renamed over the destination; the directory is synced too so the rename
// survives a crash. Every checkpoint, model and output file in strata is
// written through here.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// File is an in-progress atomic write. Write to it (it is buffered), then call
// Commit; Abort (or a failed Commit) removes the temporary file.
type File struct {
	*bufio.Writer
	f    *os.File
	dest string
	done bool
}

// Create starts an atomic write of path.
func Create(path string) (*File, error) {
	dir := filepath.Dir(path)
	a, err := reg.create(dir, "."+filepath.Base(path)+".tmp-*", path)
	if errors.Is(err, fs.ErrNotExist) {
		// The OS error names the temporary file, which the user never
		// chose; name what they can fix.
		return nil, fmt.Errorf("write %s: directory %s does not exist", path, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("create temporary file for %s: %w", path, err)
	}
	a.Writer = bufio.NewWriterSize(a.f, 1<<20)
	return a, nil
}

// Commit flushes, syncs and renames the file into place.
func (a *File) Commit() error {
	if a.done {
		return fmt.Errorf("atomicfile: %s already committed or aborted", a.dest)
	}
	a.done = true
	err := a.Flush()
	if err == nil {
		// CreateTemp makes 0600 files; give the result the destination's
		// mode, or the usual 0644 for a new file.
		err = a.f.Chmod(destMode(a.dest))
	}
	if err == nil {
		err = a.f.Sync()
	}
	if cerr := a.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = reg.rename(a)
	}
	if err != nil {
		os.Remove(a.f.Name())
		reg.remove(a)
		return fmt.Errorf("write %s: %w", a.dest, err)
	}
	syncDir(filepath.Dir(a.dest))
	return nil
}

// Abort discards the write. It is safe to call after Commit (it does nothing),
// so `defer f.Abort()` is the idiom.
func (a *File) Abort() {
	if a.done {
		return
	}
	a.done = true
	a.f.Close()
	os.Remove(a.f.Name())
	reg.remove(a)
}

// WriteFile atomically writes data to path.
func WriteFile(path string, data []byte) error {
	return WriteWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith atomically writes whatever fn writes to path.
func WriteWith(path string, fn func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := fn(f); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

func destMode(path string) os.FileMode {
	if st, err := os.Stat(path); err == nil {
		return st.Mode().Perm()
	}
	return 0o644
}

func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync() // best effort: some filesystems refuse to sync directories
	d.Close()
}
