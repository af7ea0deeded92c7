//go:build !amd64

package engine

// FMAPeak is the amd64 FMA-peak loop's stand-in: no assembly here, no
// ceiling (0 floating-point operations).
func FMAPeak(n int) float64 { return 0 }
