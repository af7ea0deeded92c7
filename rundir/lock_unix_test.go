//go:build unix

package rundir

import (
	"errors"
	"syscall"
	"testing"
)

// Where the file system keeps no locks (flock fails with ENOLCK, as on
// some NFS mounts), Lock says so with a lock that holds nothing, so the
// caller can warn and train on; Locked reports no training.
func TestNoLocksOnTheFileSystem(t *testing.T) {
	defer func(f func(int, int) error) { flock = f }(flock)
	flock = func(int, int) error { return syscall.ENOLCK }
	dir := t.TempDir()
	l, err := Lock(dir)
	if !errors.Is(err, ErrNoLocks) || l == nil {
		t.Fatalf("Lock: %v, %v; want ErrNoLocks and a lock", l, err)
	}
	l.Unlock()
	if Locked(dir) {
		t.Error("Locked is true without locks")
	}
}
