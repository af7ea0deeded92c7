package langid

import (
	"math"
	"math/big"
)

// expf reproduces glibc's expf (glibc 2.28 and later) bit for bit, so that
// the probabilities printed here match `fasttext predict-prob` in the last
// digit. Rounding math.Exp to float32 is correctly rounded, but glibc's
// expf is not always (its error bound is 0.502 ulp): about 1 in 1,500
// results differ by one ulp, which showed up as last-digit differences in
// about 3 lines in 1,000 with k = -1. The algorithm is the standard one
// for this: x/ln2 = k/32 + r, exp(x) = 2^(k/32) * 2^(r/32), with the first
// factor from a 32-entry table and the second from a cubic polynomial, all in
// double precision and rounded once. TestExpfMatchesLibm checks it against
// the C library when one can be called.
func expf(x float32) float32 {
	const (
		n       = 32
		invLn2N = 0x1.71547652b82fep+0 * n
		shift   = 0x1.8p+52 // adding it rounds to an integer in the low bits
		c0      = 0x1.c6af84b912394p-5 / n / n / n
		c1      = 0x1.ebfce50fac4f3p-3 / n / n
		c2      = 0x1.62e42ff0c52d6p-1 / n
	)
	if abs := math.Float32bits(x) & 0x7FFFFFFF; abs >= math.Float32bits(88)&0x7FF00000 {
		switch {
		case math.IsInf(float64(x), -1):
			return 0
		case abs >= 0x7F800000: // +Inf or NaN
			return x + x
		case x > 0x1.62e42ep6: // overflow
			return float32(math.Inf(1))
		case x < -0x1.9fe368p6: // underflow
			return 0
		}
	}
	xd := float64(x)
	z := float64(invLn2N * xd)
	kd := z + shift
	ki := math.Float64bits(kd)
	kd -= shift
	r := z - kd
	s := math.Float64frombits(exp2Table[ki%n] + ki<<(52-5))
	p := float64(c0*r) + c1
	y := float64(c2*r) + 1
	y = float64(p*float64(r*r)) + y
	return float32(y * s)
}

// exp2Table[i] holds the bits of 2^(i/32), correctly rounded, minus i<<47 so
// that adding k<<47 scales by 2^(k/32) in one integer addition.
var exp2Table = func() (t [32]uint64) {
	for i := range t {
		x := new(big.Float).SetPrec(256).SetMantExp(big.NewFloat(1), i) // 2^i
		for range 5 {
			x.Sqrt(x) // 2^(i/32)
		}
		f, _ := x.Float64()
		t[i] = math.Float64bits(f) - uint64(i)<<47
	}
	return t
}()
