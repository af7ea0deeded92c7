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
	// The row means and 1/σ, kept for backward (not for inference), which
	// recomputes x̂ = (x - mean)·(1/σ) from x, bit for bit as here, rather
	// than keeping a copy of x̂ as large as x.
	var mean, rstd []float32
	if y.needGrad {
		mean, rstd = g.arena.get(n), g.arena.get(n)
	}
	g.parallel(n, d, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xs, ys := x.Data[r*d:(r+1)*d], y.Data[r*d:(r+1)*d]
			mu, rs := rowStats(xs)
			m, rs32 := float32(mu), float32(rs)
			if rstd != nil {
				mean[r], rstd[r] = m, rs32
			}
			for j, v := range xs {
				ys[j] = (v - m) * rs32
			}
			affine(ys, gain, bias)
		}
	})
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		g.layerNormBackward(x, gain, bias, y.Grad, mean, rstd)
	})
	return y
}

// normRow writes row r's x̂ = (x - mean)·(1/σ) into hs.
func normRow(hs, xs []float32, m, rs float32) {
	for j, v := range xs {
		hs[j] = (v - m) * rs
	}
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

func (g *Graph) layerNormBackward(x, gain, bias *Tensor, dy, mean, rstd []float32) {
	d, n := x.Cols(), x.Rows()
	dGain := gain != nil && gain.needGrad
	dBias := bias != nil && bias.needGrad
	if dGain || dBias { // both column sums in one pass over dy
		var dg, db []float32
		if dGain {
			dg = g.grad(gain)
		}
		if dBias {
			db = g.grad(bias)
		}
		c := g.chunks(n, d)
		hbuf := g.arena.get(c * d)
		g.sumColumns2(dg, db, n, d, func(ch, r int, accG, accB []float32) {
			ds := dy[r*d : (r+1)*d]
			if accG != nil {
				hs := hbuf[ch*d : (ch+1)*d]
				normRow(hs, x.Data[r*d:(r+1)*d], mean[r], rstd[r])
				for j := range accG {
					accG[j] += ds[j] * hs[j]
				}
			}
			if accB != nil {
				axpy(accB, ds, 1)
			}
		})
		g.arena.recycle(hbuf)
	}
	if !x.needGrad {
		return
	}
	dx := g.grad(x)
	c := g.chunks(n, d)
	hbuf := g.arena.get(c * d)
	g.parallel(n, d, func(ch, lo, hi int) {
		hs := hbuf[ch*d : (ch+1)*d]
		for r := lo; r < hi; r++ {
			ds, dxs := dy[r*d:(r+1)*d], dx[r*d:(r+1)*d]
			normRow(hs, x.Data[r*d:(r+1)*d], mean[r], rstd[r])
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
	g.arena.recycle(hbuf)
}
