//go:build unix

package rundir

import (
	"errors"
	"os"
	"syscall"
)

// flock is syscall.Flock; tests stand in a file system without locks.
var flock = syscall.Flock

// tryLock takes an exclusive flock on f without waiting: ErrLocked when
// another open description holds it, ErrNoLocks where the file system
// keeps none (some network file systems).
func tryLock(f *os.File) error {
	err := flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		return ErrLocked
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOTSUP):
		return ErrNoLocks
	}
	return err
}
