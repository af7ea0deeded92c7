package kernels

import "math"

// Tanh stores tanh(x_i) in y_i. MSC's GRU evaluates millions of them per
// 36-layer training step. With AVX2 the elements run 8 at a time
// (tanh_amd64.s), both of TanhGo's branches computed and the lane's chosen
// by mask, by the same float32 operations in the same order as TanhGo
// without fused multiply-adds, so the results are TanhGo's to the bit, as
// Sigmoid's are SigmoidGo's.
func Tanh(x, y []float32) {
	y = y[:len(x)]
	n := 0
	if avx2 && len(x) >= 8 {
		n = len(x) &^ 7
		TanhAVX2(&y[0], &x[0], n)
	}
	for i := n; i < len(x); i++ {
		y[i] = TanhGo(x[i])
	}
}

// TanhGo is tanh(v). Near zero (1-e)/(1+e) with e = e^-2|v| would cancel,
// so |v| < 0.625 uses an odd minimax polynomial instead (the coefficients
// of Moshier's Cephes tanhf, whose split point this is); above, e ≤ 0.29
// and the quotient is accurate. NaN gives itself. Every product is rounded
// before it is added (float32(·)), as Go computes it unless the compiler
// fuses multiply-adds (GOAMD64=v3 may): TanhAVX2 reproduces this function
// to the bit without FMA.
func TanhGo(v float32) float32 {
	a := float32(math.Abs(float64(v)))
	if a < 0.625 {
		s := v * v
		p := float32(-5.70498872745e-3*s) + 2.06390887954e-2
		p = float32(p*s) - 5.37397155531e-2
		p = float32(p*s) + 1.33314422036e-1
		p = float32(p*s) - 3.33332819422e-1
		return v + float32(float32(v*s)*p)
	}
	if v != v {
		return v
	}
	e := ExpNeg(-2 * a)
	t := (1 - e) / (1 + e)
	if v < 0 {
		return -t
	}
	return t
}
