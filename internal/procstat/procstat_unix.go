//go:build unix

// Package procstat reads the process's own resource use (getrusage): its
// peak resident memory, which training logs, and its CPU time, which the
// benchmarks divide by.
package procstat

import (
	"runtime"
	"syscall"
	"time"
)

// PeakRSS is the most memory the process has held resident so far, in
// bytes (0 when unknown).
func PeakRSS() int64 {
	ru, ok := usage()
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes there, KiB on Linux and the BSDs
	}
	return int64(ru.Maxrss) * 1024
}

// CPUSeconds is the user + system time the process has used so far (0
// when unknown): on a shared machine, work per CPU-second is steadier
// than per wall second.
func CPUSeconds() float64 {
	ru, ok := usage()
	if !ok {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

func usage() (syscall.Rusage, bool) {
	var ru syscall.Rusage
	err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru, err == nil
}
