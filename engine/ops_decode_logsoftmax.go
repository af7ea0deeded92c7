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
	g.be.LogSoftmaxInPlace(x.Data, x.Rows(), x.Cols())
	return x
}

// LogSoftmaxInPlace on the CPU: LogSoftmax's row loop (ops_loss.go),
// writing where it reads: every element is read for the maximum and the
// sum before the first is written.
func (c cpuBackend) LogSoftmaxInPlace(x []float32, n, v int) {
	c.g.parallel(n, v, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xs := x[r*v : (r+1)*v]
			mx := rowMax(xs)
			sum, _ := expSums(xs, mx, nil)
			lse := mx + float32(math.Log(sum))
			subScalar(xs, lse)
		}
	})
}
