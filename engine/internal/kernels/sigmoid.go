package kernels

// Sigmoid stores σ(x_i) = 1/(1+e^-x_i) in y_i. MSC's gated fusion and GRU
// evaluate tens of millions of sigmoids per 36-layer training step; one at
// a time, with a branch on a sign that is a coin toss, they took 6% of
// the step. With AVX2 the elements run 8 at a time (sigmoid_amd64.s), by
// the same float32 operations in the same order as SigmoidGo without fused
// multiply-adds, so the results are SigmoidGo's to the bit: a training run
// does not change with the CPU, and a run resumed on a build that has the
// kernel continues exactly.
func Sigmoid(x, y []float32) {
	y = y[:len(x)]
	n := 0
	if avx2 && len(x) >= 8 {
		n = len(x) &^ 7
		SigmoidAVX2(&y[0], &x[0], n)
	}
	for i := n; i < len(x); i++ {
		y[i] = SigmoidGo(x[i])
	}
}

// SigmoidGo is 1/(1+e^-v), through e^-|v| so that the exponential never
// overflows and small outputs keep their relative precision. NaN gives
// itself. (Selecting by bit mask instead of branching on the sign measured
// 1.3x slower in Go, random signs included; the assembly selects by mask.)
func SigmoidGo(v float32) float32 {
	if v >= 0 {
		return 1 / (1 + ExpNeg(-v))
	}
	if v != v {
		return v
	}
	e := ExpNeg(v)
	return e / (1 + e)
}
