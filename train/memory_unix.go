//go:build unix

package train

import (
	"runtime"
	"syscall"
)

// peakRSS is the most memory the process has held resident so far, in
// bytes (0 when unknown): the figure to watch when a deep model's batches
// approach the machine's memory (strata train --micro-batches).
func peakRSS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes there, KiB on Linux and the BSDs
	}
	return int64(ru.Maxrss) * 1024
}
