//go:build !unix

// Package procstat reads the process's own resource use; here it is
// unknown (see procstat_unix.go).
package procstat

// PeakRSS is unknown here.
func PeakRSS() int64 { return 0 }

// CPUSeconds is unknown here.
func CPUSeconds() float64 { return 0 }
