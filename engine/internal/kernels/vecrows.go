package kernels

import "math"

// Row passes of inference ops (and of training's loss and ReLU) vectorized
// with AVX2 where the CPU has it (decodevec_amd64.s), Go elsewhere; each
// gives the Go loop's bits. XOn(..., false) is X's reference, the Go
// loop alone; the tests compare it with XOn(..., true).

// RowMax is the largest of xs (not empty) as LogSoftmax's loop finds it,
// from xs[0] on, passing over NaNs; vectorized where AVX2 is (the
// maximum does not depend on the order, ±0 aside, which the log-softmax
// does not see: z - 0 and z - (-0) are the same float).
func RowMax(xs []float32) float32 { return RowMaxOn(xs, avx2) }

// RowMaxOn is RowMax on the vector kernel (vec) or in Go.
func RowMaxOn(xs []float32, vec bool) float32 {
	mx, n := xs[0], 0
	if vec && len(xs) >= 16 {
		n = len(xs) &^ 15
		mx = RowMaxAVX2(&xs[0], n, mx)
	}
	for _, a := range xs[n:] {
		if a > mx {
			mx = a
		}
	}
	return mx
}

// SubScalar subtracts c from every element of xs (each a single rounding,
// vectorized or not).
func SubScalar(xs []float32, c float32) { SubScalarOn(xs, c, avx2) }

// SubScalarOn is SubScalar on the vector kernel (vec) or in Go.
func SubScalarOn(xs []float32, c float32, vec bool) {
	n := 0
	if vec && len(xs) >= 8 {
		n = len(xs) &^ 7
		SubScalarAVX2(&xs[0], n, c)
	}
	for j := n; j < len(xs); j++ {
		xs[j] -= c
	}
}

// ScaleTo sets dst[j] = src[j]·a for j < len(dst), one rounded product
// each (attention's probabilities from the exponentials).
func ScaleTo(dst, src []float32, a float32) {
	src = src[:len(dst)]
	n := 0
	if avx2 && len(dst) >= 8 {
		n = len(dst) &^ 7
		ScaleToAVX2(&dst[0], &src[0], n, a)
	}
	for j := n; j < len(dst); j++ {
		dst[j] = src[j] * a
	}
}

// MulSub sets every element x of xs to x·mul - sub, rounding the product
// and the difference each (the label-smoothed loss's gradient row).
func MulSub(xs []float32, mul, sub float32) { MulSubOn(xs, mul, sub, avx2) }

// MulSubOn is MulSub on the vector kernel (vec) or in Go.
func MulSubOn(xs []float32, mul, sub float32, vec bool) {
	n := 0
	if vec && len(xs) >= 8 {
		n = len(xs) &^ 7
		MulSubAVX2(&xs[0], n, mul, sub)
	}
	for j := n; j < len(xs); j++ {
		xs[j] = float32(xs[j]*mul) - sub // float32(): never fused into an FMA
	}
}

// Relu sets the elements of xs whose sign bit is set to +0, as
// LinearReLU's bits &^ (int32(bits) >> 31) does (NaNs with the sign bit
// included), in place.
func Relu(xs []float32) { ReluOn(xs, avx2) }

// ReluOn is Relu on the vector kernel (vec) or in Go.
func ReluOn(xs []float32, vec bool) {
	n := 0
	if vec && len(xs) >= 8 {
		n = len(xs) &^ 7
		ReluAVX2(&xs[0], n)
	}
	for j := n; j < len(xs); j++ {
		bits := math.Float32bits(xs[j])
		xs[j] = math.Float32frombits(bits &^ uint32(int32(bits)>>31))
	}
}

// BiasRelu sets xs[i] = ReLU(xs[i] + bias[i]) (LinearReLU's forward pass
// while training, where the product does not add the bias).
func BiasRelu(xs, bias []float32) { BiasReluOn(xs, bias, avx2) }

// BiasReluOn is BiasRelu on the vector kernel (vec) or in Go.
func BiasReluOn(xs, bias []float32, vec bool) {
	bias = bias[:len(xs)]
	n := 0
	if vec && len(xs) >= 8 {
		n = len(xs) &^ 7
		BiasReluAVX2(&xs[0], &bias[0], n)
	}
	for j := n; j < len(xs); j++ {
		bits := math.Float32bits(xs[j] + bias[j])
		xs[j] = math.Float32frombits(bits &^ uint32(int32(bits)>>31))
	}
}

// ReluGrad zeroes the elements of ds where the ReLU output ys is +0 (the
// only non-positive value a ReLU output holds), ReLU's backward in place.
func ReluGrad(ds, ys []float32) { ReluGradOn(ds, ys, avx2) }

// ReluGradOn is ReluGrad on the vector kernel (vec) or in Go.
func ReluGradOn(ds, ys []float32, vec bool) {
	ys = ys[:len(ds)]
	n := 0
	if vec && len(ds) >= 8 {
		n = len(ds) &^ 7
		ReluGradAVX2(&ds[0], &ys[0], n)
	}
	for i := n; i < len(ds); i++ {
		pass := uint32(int32(-math.Float32bits(ys[i])) >> 31)
		ds[i] = math.Float32frombits(math.Float32bits(ds[i]) & pass)
	}
}
