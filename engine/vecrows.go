package engine

import "math"

// Row passes of inference ops vectorized with AVX2 where the CPU has it
// (decodevec_amd64.s), Go elsewhere; each gives the Go loop's bits.

// rowMax is the largest of xs (not empty) as LogSoftmax's loop finds it,
// from xs[0] on, passing over NaNs; vectorized where AVX2 is (the
// maximum does not depend on the order, ±0 aside, which the log-softmax
// does not see: z - 0 and z - (-0) are the same float).
func rowMax(xs []float32) float32 { return rowMaxOn(xs, haveAVX2FMA) }

// rowMaxOn is rowMax on the vector kernel (vec) or in Go.
func rowMaxOn(xs []float32, vec bool) float32 {
	mx, n := xs[0], 0
	if vec && len(xs) >= 16 {
		n = len(xs) &^ 15
		mx = rowMaxAVX2(&xs[0], n, mx)
	}
	for _, a := range xs[n:] {
		if a > mx {
			mx = a
		}
	}
	return mx
}

// subScalar subtracts c from every element of xs (each a single rounding,
// vectorized or not).
func subScalar(xs []float32, c float32) { subScalarOn(xs, c, haveAVX2FMA) }

// subScalarOn is subScalar on the vector kernel (vec) or in Go.
func subScalarOn(xs []float32, c float32, vec bool) {
	n := 0
	if vec && len(xs) >= 8 {
		n = len(xs) &^ 7
		subScalarAVX2(&xs[0], n, c)
	}
	for j := n; j < len(xs); j++ {
		xs[j] -= c
	}
}

// relu sets the elements of xs whose sign bit is set to +0, as
// LinearReLU's bits &^ (int32(bits) >> 31) does (NaNs with the sign bit
// included), in place.
func relu(xs []float32) { reluOn(xs, haveAVX2FMA) }

// reluOn is relu on the vector kernel (vec) or in Go.
func reluOn(xs []float32, vec bool) {
	n := 0
	if vec && len(xs) >= 8 {
		n = len(xs) &^ 7
		reluAVX2(&xs[0], n)
	}
	for j := n; j < len(xs); j++ {
		bits := math.Float32bits(xs[j])
		xs[j] = math.Float32frombits(bits &^ uint32(int32(bits)>>31))
	}
}
