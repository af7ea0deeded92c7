// Package report holds what strata's side of the benchmarks reports the
// same way as the PyTorch reference (bench/reference), so that run.sh can
// divide one by the other.
package report

import (
	"strconv"

	"github.com/strata-nmt/strata/internal/procstat"
)

// PeakRSSMB is the process's peak resident set in MiB (getrusage
// ru_maxrss), the number the reference reports with resource.getrusage;
// 0 where unknown.
func PeakRSSMB() float64 { return float64(procstat.PeakRSS()) / (1 << 20) }

// Round rounds x to d decimal digits for the JSON line.
func Round(x float64, d int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64)
	return v
}

// CPUSeconds is the user + system time the process has used so far: on a
// shared machine, work per CPU-second is steadier than per wall second.
func CPUSeconds() float64 { return procstat.CPUSeconds() }
