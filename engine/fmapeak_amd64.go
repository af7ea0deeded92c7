package engine

// fmaPeakAVX512 and fmaPeakAVX2 are in fmapeak_amd64.s.
//
//go:noescape
func fmaPeakAVX512(n int)

//go:noescape
func fmaPeakAVX2(n int)

// FMAPeak runs n rounds of 12 independent float32 fused multiply-adds on
// the widest vectors the CPU has and returns the floating-point
// operations done (0 where it has no FMA): timed, it is the core's
// physical arithmetic peak, the ceiling benchmarks compare kernels
// against.
func FMAPeak(n int) float64 {
	switch {
	case n < 1:
		return 0
	case haveAVX512F32:
		fmaPeakAVX512(n)
		return float64(n) * 12 * 16 * 2
	case haveAVX2FMA:
		fmaPeakAVX2(n)
		return float64(n) * 12 * 8 * 2
	}
	return 0
}
