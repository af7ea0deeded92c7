package kernels

import "math"

// ExpSums returns Σ_j e^(z_j - mx) and Σ_j z_j, storing the exponentials
// in dr when it is not nil: the sums of softmax, log-softmax and
// cross-entropy rows. Eight float64 partial sums per quantity (lane j mod
// 8) are added in a fixed order. With AVX2 and FMA the lanes are computed 8
// at a time (expsum_amd64.s), and with AVX-512 16 at a time into the same
// eight lanes, to the AVX2 kernel's bit; the rest of the row (and, without
// them, all of it) runs ExpSumsGo's loop. The assembly's exponential fuses
// its multiply-adds, so against ExpSumsGo it agrees to ExpNeg's accuracy
// (2.5e-7 relative), not bit for bit.
func ExpSums(z []float32, mx float32, dr []float32) (sum, sumZ float64) {
	var acc [16]float64
	if dr != nil {
		dr = dr[:len(z)]
	}
	n := 0
	if avx512 && len(z) >= 16 {
		n = len(z) &^ 15
		ExpSumsAVX512(dstAt(dr, 0), &z[0], n, mx, &acc)
	}
	if avx2 && len(z)-n >= 8 {
		m := (len(z) - n) &^ 7
		ExpSumsAVX2(dstAt(dr, n), &z[n], m, mx, &acc)
		n += m
	}
	expSumsFrom(z, mx, dr, n, &acc)
	return sumLanes(acc[:8]), sumLanes(acc[8:])
}

// ExpSumsGo is ExpSums in Go.
func ExpSumsGo(z []float32, mx float32, dr []float32) (sum, sumZ float64) {
	var acc [16]float64
	if dr != nil {
		dr = dr[:len(z)]
	}
	expSumsFrom(z, mx, dr, 0, &acc)
	return sumLanes(acc[:8]), sumLanes(acc[8:])
}

// expSumsFrom adds the elements from n on to the lanes.
func expSumsFrom(z []float32, mx float32, dr []float32, n int, acc *[16]float64) {
	for j := n; j < len(z); j++ {
		e := ExpNeg(z[j] - mx)
		if dr != nil {
			dr[j] = e
		}
		acc[j&7] += float64(e)
		acc[8+(j&7)] += float64(z[j])
	}
}

// dstAt is &dr[i], or nil when dr is.
func dstAt(dr []float32, i int) *float32 {
	if dr == nil {
		return nil
	}
	return &dr[i]
}

// sumLanes adds eight partial sums pairwise.
func sumLanes(a []float64) float64 {
	return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]))
}

// ExpNeg is e^x for x ≤ 0 in float32 arithmetic: the softmax and
// cross-entropy kernels evaluate tens of millions of exponentials per
// training step, and math.Exp (float64) was a ninth of a step's CPU time.
//
// The method is the classic one (Cody-Waite range reduction, then a minimax
// polynomial): x = n·ln2 + r with |r| ≤ ln2/2, where ln2 is split into a
// short high part, exact in float32 when multiplied by n, and a correction;
// e^r ≈ 1 + r + r²·P(r) with P of degree 5 (the coefficients of Moshier's
// Cephes expf); the result is scaled by 2^n through the exponent bits.
// The relative error is below 2.5e-7 (about 2 ulp) on the whole range
// (engine's TestExpNeg); results below 2^-126 are flushed to zero.
func ExpNeg(x float32) float32 {
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
	// Every product is rounded before it is added (float32(·)), as Go
	// computes it unless the compiler fuses multiply-adds (GOAMD64=v3
	// may): SigmoidAVX2 and TanhAVX2 reproduce this function to the bit
	// without FMA.
	k := int32(float32(x*log2e) - 0.5) // round(x·log2 e), as x ≤ 0
	n := float32(k)
	r := x - float32(n*ln2hi) - float32(n*ln2lo)
	r2 := r * r
	// P evaluated in two halves (a shorter dependency chain than Horner's)
	hi := float32((float32(1.9875691500e-4*r)+1.3981999507e-3)*r2) + (float32(8.3334519073e-3*r) + 4.1665795894e-2)
	lo := float32(1.6666665459e-1*r) + 5.0000001201e-1
	p := float32((float32(hi*r2)+lo)*r2) + r + 1
	return p * math.Float32frombits(uint32(k+127)<<23)
}
