package engine

import "math"

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

// expNegPoly is e^x for x ≤ 0 in float32 arithmetic: those kernels
// evaluate tens of millions of exponentials per training step, and
// math.Exp (float64) was a ninth of a step's CPU time.
//
// The method is the classic one (Cody-Waite range reduction, then a minimax
// polynomial): x = n·ln2 + r with |r| ≤ ln2/2, where ln2 is split into a
// short high part, exact in float32 when multiplied by n, and a correction;
// e^r ≈ 1 + r + r²·P(r) with P of degree 5 (the coefficients of Moshier's
// Cephes expf); the result is scaled by 2^n through the exponent bits.
// TestExpNeg checks the relative error is below 2.5e-7 (about 2 ulp) on
// the whole range; results below 2^-126 are flushed to zero.
func expNegPoly(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375
		ln2lo = -2.12194440e-4
		minX  = -87.33654 // ln 2^-126
	)
	if !(x >= minX) { // also catches NaN, which then becomes 0 like -Inf
		if x != x {
			return x
		}
		return 0
	}
	k := int32(x*log2e - 0.5) // round(x·log2 e), as x ≤ 0
	n := float32(k)
	r := x - n*ln2hi - n*ln2lo
	r2 := r * r
	// P evaluated in two halves (a shorter dependency chain than Horner's)
	hi := (1.9875691500e-4*r+1.3981999507e-3)*r2 + (8.3334519073e-3*r + 4.1665795894e-2)
	lo := 1.6666665459e-1*r + 5.0000001201e-1
	p := (hi*r2+lo)*r2 + r + 1
	return p * math.Float32frombits(uint32(k+127)<<23)
}
