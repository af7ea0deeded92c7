package engine

import (
	"math"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// sigmoid and tanh through expNegPoly instead of float64 math.Exp and
// math.Tanh: MSC's GRU context and gated fusion evaluate tens of millions
// of them per 36-layer training step, and with the float64 library calls
// they took about 6% of its CPU time; these are 1.4-1.7x faster
// (BenchmarkSigmoidTanh, random signs). Both stay within TolFunc of the
// float64 reference (TestSigmoidTanh32).

// sigmoid32 is 1/(1+e^-v) (kernels.SigmoidGo: through e^-|v|, so that the
// exponential never overflows). Rows of them run through kernels.Sigmoid,
// eight at a time with AVX2, to this function's bit.
func sigmoid32(v float32) float32 { return kernels.SigmoidGo(v) }

// tanh32 is tanh(v). Near zero (1-e)/(1+e) with e = e^-2|v| would cancel,
// so |v| < 0.625 uses an odd minimax polynomial instead (the coefficients
// of Moshier's Cephes tanhf, whose split point this is); above, e ≤ 0.29
// and the quotient is accurate.
func tanh32(v float32) float32 {
	a := float32(math.Abs(float64(v)))
	if a < 0.625 {
		s := v * v
		p := (((-5.70498872745e-3*s+2.06390887954e-2)*s-5.37397155531e-2)*s+1.33314422036e-1)*s - 3.33332819422e-1
		return v + v*s*p
	}
	if v != v {
		return v
	}
	e := expNegPoly(-2 * a)
	t := (1 - e) / (1 + e)
	if v < 0 {
		return -t
	}
	return t
}
