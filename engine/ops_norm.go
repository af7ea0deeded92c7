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
// Statistics are computed in float64 and kept for the backward pass.
func (g *Graph) LayerNorm(x, gain, bias *Tensor) *Tensor {
	d, n := x.Cols(), x.Rows()
	if (gain != nil && gain.Size() != d) || (bias != nil && bias.Size() != d) {
		panic(fmt.Sprintf("engine.LayerNorm: x %v, gain %v, bias %v", x.Shape(), shapeOf(gain), shapeOf(bias)))
	}
	y := g.newTensor([]*Tensor{x, gain, bias}, x.Shape()...)
	// xhat and 1/σ per row, needed by backward.
	xhat := g.arena.get(n * d)
	rstd := g.arena.get(n)
	g.parallel(n, d, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xs, hs, ys := x.Data[r*d:(r+1)*d], xhat[r*d:(r+1)*d], y.Data[r*d:(r+1)*d]
			var mean, vr float64
			for _, v := range xs {
				mean += float64(v)
			}
			mean /= float64(d)
			for _, v := range xs {
				dv := float64(v) - mean
				vr += dv * dv
			}
			rs := 1 / math.Sqrt(vr/float64(d)+LayerNormEps)
			rstd[r] = float32(rs)
			for j, v := range xs {
				h := float32((float64(v) - mean) * rs)
				hs[j] = h
				o := h
				if gain != nil {
					o *= gain.Data[j]
				}
				if bias != nil {
					o += bias.Data[j]
				}
				ys[j] = o
			}
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
