package engine

import (
	"math"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// fastExp switches the softmax and cross-entropy kernels from math.Exp to
// the float32 polynomial expNegPoly (2.6x faster in BenchmarkExp). Its
// rounding (1e-7 relative) changes a training run's trajectory slightly, not
// its outcome: the 400-update copy task in train's tests ends at 0.036
// bits/token against 0.034 with math.Exp.
const fastExp = true

// expNeg is e^x for x ≤ 0, the exponential of the softmax and cross-entropy
// kernels (arguments x - max(row)).
func expNeg(x float32) float32 {
	if !fastExp {
		return float32(math.Exp(float64(x)))
	}
	return expNegPoly(x)
}

// expNegPoly is e^x for x ≤ 0 in float32 arithmetic (kernels.ExpNeg: a
// range reduction and a degree-5 polynomial, 2.5e-7 relative error).
func expNegPoly(x float32) float32 { return kernels.ExpNeg(x) }
