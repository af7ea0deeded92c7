package engine

import (
	"fmt"
	"math"
)

// LayerNormEps is the epsilon of every layer norm (fairseq and PyTorch's
// default).
const LayerNormEps = 1e-5

// LayerNorm normalises each row of x to zero mean and unit variance (biased
// variance, eps 1e-5) and applies gain and bias. gain and bias may be nil:
// the parameter-free LayerNorm of the zero-shot paper's Appendix E.
// Statistics are computed in float64 and kept for the backward pass when
// there is one.
func (g *Graph) LayerNorm(x, gain, bias *Tensor) *Tensor {
	d, n := x.Cols(), x.Rows()
	if (gain != nil && gain.Size() != d) || (bias != nil && bias.Size() != d) {
		panic(fmt.Sprintf("engine.LayerNorm: x %v, gain %v, bias %v", x.Shape(), shapeOf(gain), shapeOf(bias)))
	}
	y := g.newTensor([]*Tensor{x, gain, bias}, x.Shape()...)
	// xhat and 1/σ per row, needed by backward (not kept for inference).
	var xhat, rstd []float32
	if y.needGrad {
		xhat, rstd = g.arena.get(n*d), g.arena.get(n)
	}
	g.parallel(n, d, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xs, ys := x.Data[r*d:(r+1)*d], y.Data[r*d:(r+1)*d]
			mean, rs := rowStats(xs)
			if rstd != nil {
				rstd[r] = float32(rs)
			}
			m, rs32 := float32(mean), float32(rs)
			for j, v := range xs {
				ys[j] = (v - m) * rs32
			}
			if xhat != nil {
				copy(xhat[r*d:(r+1)*d], ys)
			}
			affine(ys, gain, bias)
		}
	})
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		g.layerNormBackward(x, gain, bias, y.Grad, xhat, rstd)
	})
	return y
}

// affine applies LayerNorm's gain and bias (either may be nil) in place.
func affine(ys []float32, gain, bias *Tensor) {
	switch {
	case gain != nil && bias != nil:
		gs, bs := gain.Data[:len(ys)], bias.Data[:len(ys)]
		for j := range ys {
			ys[j] = ys[j]*gs[j] + bs[j]
		}
	case gain != nil:
		gs := gain.Data[:len(ys)]
		for j := range ys {
			ys[j] *= gs[j]
		}
	case bias != nil:
		bs := bias.Data[:len(ys)]
		for j := range ys {
			ys[j] += bs[j]
		}
	}
}

// rowStats returns a row's mean and 1/sqrt(variance + eps) in float64,
// with four partial sums per pass: a single accumulator made the sums
// latency-bound.
func rowStats(xs []float32) (mean, rstd float64) {
	var s [4]float64
	n := len(xs) &^ 3
	for j := 0; j < n; j += 4 {
		s[0] += float64(xs[j])
		s[1] += float64(xs[j+1])
		s[2] += float64(xs[j+2])
		s[3] += float64(xs[j+3])
	}
	for j := n; j < len(xs); j++ {
		s[0] += float64(xs[j])
	}
	mean = ((s[0] + s[1]) + (s[2] + s[3])) / float64(len(xs))
	s = [4]float64{}
	for j := 0; j < n; j += 4 {
		d0, d1, d2, d3 := float64(xs[j])-mean, float64(xs[j+1])-mean, float64(xs[j+2])-mean, float64(xs[j+3])-mean
		s[0] += d0 * d0
		s[1] += d1 * d1
		s[2] += d2 * d2
		s[3] += d3 * d3
	}
	for j := n; j < len(xs); j++ {
		dv := float64(xs[j]) - mean
		s[0] += dv * dv
	}
	vr := ((s[0] + s[1]) + (s[2] + s[3])) / float64(len(xs))
	return mean, 1 / math.Sqrt(vr+LayerNormEps)
}

func (g *Graph) layerNormBackward(x, gain, bias *Tensor, dy, xhat, rstd []float32) {
	d, n := x.Cols(), x.Rows()
	if gain != nil && gain.needGrad {
		g.sumColumns(g.grad(gain), n, d, func(r int, acc []float32) {
			hs, ds := xhat[r*d:(r+1)*d], dy[r*d:(r+1)*d]
			for j := range acc {
				acc[j] += ds[j] * hs[j]
			}
		})
	}
	if bias != nil && bias.needGrad {
		g.sumColumns(g.grad(bias), n, d, func(r int, acc []float32) {
			axpy(acc, dy[r*d:(r+1)*d], 1)
		})
	}
	if !x.needGrad {
		return
	}
	dx := g.grad(x)
	g.parallel(n, d, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			hs, ds, dxs := xhat[r*d:(r+1)*d], dy[r*d:(r+1)*d], dx[r*d:(r+1)*d]
			// dx = rstd · (dĥ - mean(dĥ) - ĥ·mean(dĥ·ĥ)), dĥ = dy·gain
			var m1, m2 float64
			for j, dv := range ds {
				if gain != nil {
					dv *= gain.Data[j]
				}
				m1 += float64(dv)
				m2 += float64(dv) * float64(hs[j])
			}
			m1 /= float64(d)
			m2 /= float64(d)
			rs := float64(rstd[r])
			for j, dv := range ds {
				if gain != nil {
					dv *= gain.Data[j]
				}
				dxs[j] += float32(rs * (float64(dv) - m1 - float64(hs[j])*m2))
			}
		}
	})
}
