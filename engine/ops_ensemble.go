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
	data := make([][]float32, len(xs))
	for i, x := range xs {
		data[i] = x.Data
	}
	g.be.LogMeanExp(y.Data, data)
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		for _, x := range xs {
			if x.needGrad {
				g.be.LogMeanExpBackward(x.Data, y.Data, y.Grad, g.grad(x), len(xs))
			}
		}
	})
	return y
}

// LogMeanExp on the CPU: logAddExp's table, elements in parallel chunks.
func (c cpuBackend) LogMeanExp(y []float32, xs [][]float32) {
	k := len(xs)
	logK := float32(math.Log(float64(k)))
	c.g.parallel(len(y), 2*k, func(_, lo, hi int) {
		ys := y[lo:hi]
		copy(ys, xs[0][lo:hi])
		for _, x := range xs[1:] {
			for i, v := range x[lo:hi] {
				ys[i] = logAddExp(ys[i], v)
			}
		}
		for i, v := range ys {
			ys[i] = v - logK // -Inf stays -Inf
		}
	})
}

func (c cpuBackend) LogMeanExpBackward(x, y, dy, dx []float32, k int) {
	inv := 1 / float32(k)
	c.g.parallel(len(y), 4, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if !math.IsInf(float64(y[i]), -1) {
				// x_k - y ≤ log K, so the exponential stays small
				dx[i] += dy[i] * inv * float32(math.Exp(float64(x[i]-y[i])))
			}
		}
	})
}

// logAddExp is log(e^u + e^v) = max + log(1 + e^-|u-v|), the middle term
// from a table (log1pExpNeg) instead of an exponential and a logarithm per
// entry: BenchmarkEnsembleStep, two members over 160×10,613 entries, went
// from 50-60 ms (math.Exp and math.Log) to about 10 ms, three LogSoftmax
// passes. K members take K-1 of these.
func logAddExp(u, v float32) float32 {
	m := max(u, v)
	if math.IsInf(float64(m), -1) {
		return m
	}
	return m + log1pExpNeg(m-min(u, v)) // +Inf difference: one is -Inf
}

// log1pExpNeg is log(1 + e^-d) for d ≥ 0, interpolated linearly in a table
// of spSteps+1 values over [0, spMax): interpolation error at most h²/8
// times the second derivative (≤ 1/4) with h = spMax/spSteps, i.e. 1.3e-7,
// plus the table's float32 rounding: under 2e-7 (TestLog1pExpNeg), below
// the float32 resolution of the log-probabilities it is added to (ulp 1e-6
// at -10). Beyond spMax the value (< e^-17 ≈ 4e-8) is taken as 0.
func log1pExpNeg(d float32) float32 {
	if !(d < spMax) { // also +Inf: one member rules the token out
		return 0
	}
	x := d * (float32(spSteps) / spMax)
	i := int(x)
	f := x - float32(i)
	t := softplusTable[i : i+2 : i+2]
	return t[0] + f*(t[1]-t[0])
}

const (
	spMax   = 17
	spSteps = 8192
)

var softplusTable = func() []float32 {
	t := make([]float32, spSteps+2)
	for i := range t {
		t[i] = float32(math.Log1p(math.Exp(-float64(i) * spMax / float64(spSteps))))
	}
	return t
}()
