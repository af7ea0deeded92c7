package engine

import "math"

// LogSoftmaxInPlace is LogSoftmax for inference graphs that overwrites x
// with the result (and returns it): a decoding step's logits are read by
// nothing else, and with a vocabulary of 8,000 and 160 beam rows a second
// buffer is 5 MB per decoder, held through every step. The arithmetic is
// LogSoftmax's, so the results are the same bits. It panics on a
// recording graph, whose tape needs the logits.
func (g *Graph) LogSoftmaxInPlace(x *Tensor) *Tensor {
	if g.record {
		panic("engine: LogSoftmaxInPlace on a recording graph")
	}
	n, v := x.Rows(), x.Cols()
	g.parallel(n, v, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			// LogSoftmax's row loop (ops_loss.go), writing where it reads:
			// every element is read for the maximum and the sum before
			// the first is written
			xs := x.Data[r*v : (r+1)*v]
			mx := rowMax(xs)
			sum, _ := expSums(xs, mx, nil)
			lse := mx + float32(math.Log(sum))
			subScalar(xs, lse)
		}
	})
	return x
}

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
