package engine

import "math"

// LogMeanExp returns log((1/K)·Σ_k exp(xs[k])) elementwise for K tensors of
// equal shape: the log of the mean of probabilities given as
// log-probabilities, as an ensemble of K models combines its members'
// next-token distributions (fairseq's EnsembleModel: logsumexp over the
// members minus log K). Where every input is -Inf the result is -Inf with a
// zero gradient; otherwise ∂y/∂x_k = exp(x_k - y)/K.
func (g *Graph) LogMeanExp(xs ...*Tensor) *Tensor {
	if len(xs) == 0 {
		panic("engine.LogMeanExp: no inputs")
	}
	for _, x := range xs[1:] {
		mustSameShape("LogMeanExp", xs[0], x)
	}
	y := g.newTensor(xs, xs[0].Shape()...)
	k := len(xs)
	logK := math.Log(float64(k))
	g.parallel(len(y.Data), 4*k, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			m := xs[0].Data[i]
			for _, x := range xs[1:] {
				m = max(m, x.Data[i])
			}
			if math.IsInf(float64(m), -1) {
				y.Data[i] = m
				continue
			}
			var s float32
			for _, x := range xs {
				s += expNeg(x.Data[i] - m)
			}
			y.Data[i] = m + float32(math.Log(float64(s))-logK)
		}
	})
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		inv := 1 / float32(k)
		for _, x := range xs {
			if !x.needGrad {
				continue
			}
			dx := g.grad(x)
			g.parallel(len(y.Data), 4, func(_, lo, hi int) {
				for i := lo; i < hi; i++ {
					if !math.IsInf(float64(y.Data[i]), -1) {
						// x_k - y ≤ log K, so the exponential stays small
						dx[i] += y.Grad[i] * inv * float32(math.Exp(float64(x.Data[i]-y.Data[i])))
					}
				}
			})
		}
	})
	return y
}
