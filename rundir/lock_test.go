package rundir

import (
	"errors"
	"path/filepath"
	"runtime"
	"testing"
)

// One training at a time: a second Lock of a run directory is refused
// until the first is released; Locked tells the two states apart; Lock
// creates a directory that does not exist yet.
func TestLockRefusesASecondTraining(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skipf("no directory locks on %s", runtime.GOOS)
	}
	dir := filepath.Join(t.TempDir(), "run")
	if Locked(dir) {
		t.Fatal("a directory that does not exist is locked")
	}
	l, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !Locked(dir) {
		t.Error("Locked is false while the lock is held")
	}
	if _, err := Lock(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("second Lock: %v, want ErrLocked", err)
	}
	l.Unlock()
	l.Unlock() // twice is harmless
	if Locked(dir) {
		t.Error("Locked is true after Unlock")
	}
	l2, err := Lock(dir)
	if err != nil {
		t.Fatalf("Lock after Unlock: %v", err)
	}
	l2.Unlock()
}
