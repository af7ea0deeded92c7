package engine

import (
	"fmt"
	"math"

	"github.com/strata-nmt/strata/engine/internal/kernels"
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
	g.be.LayerNorm(x.Data, dataOf(gain), dataOf(bias), y.Data, mean, rstd, n, d)
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		g.layerNormBackward(x, gain, bias, y.Grad, mean, rstd)
	})
	return y
}

// LayerNorm on the CPU: statistics in float64 (rowStats), row arithmetic
// in AVX2 where the CPU has it.
func (c cpuBackend) LayerNorm(x, gain, bias, y, mean, rstd []float32, n, d int) {
	c.g.parallel(n, d, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xs, ys := x[r*d:(r+1)*d], y[r*d:(r+1)*d]
			mu, rs := rowStats(xs)
			m, rs32 := float32(mu), float32(rs)
			if rstd != nil {
				mean[r], rstd[r] = m, rs32
			}
			normAffineRow(ys, xs, m, rs32, gain, bias)
		}
	})
}

// normRow writes row r's x̂ = (x - mean)·(1/σ) into hs.
func normRow(hs, xs []float32, m, rs float32) {
	for j, v := range xs {
		hs[j] = (v - m) * rs
	}
}

// normRow followed by affine in one pass over the row: the same
// operations in the same order, so bit for bit the two passes' result.
func normAffineRow(ys, xs []float32, m, rs float32, gain, bias []float32) {
	xs = xs[:len(ys)]
	switch {
	case gain != nil && bias != nil:
		kernels.NormAffine(ys, xs, gain, bias, m, rs)
	default:
		normRow(ys, xs, m, rs)
		affine(ys, gain, bias)
	}
}

// affine applies LayerNorm's gain and bias (either may be nil) in place.
func affine(ys []float32, gain, bias []float32) {
	switch {
	case gain != nil && bias != nil:
		gs, bs := gain[:len(ys)], bias[:len(ys)]
		for j := range ys {
			ys[j] = ys[j]*gs[j] + bs[j]
		}
	case gain != nil:
		gs := gain[:len(ys)]
		for j := range ys {
			ys[j] *= gs[j]
		}
	case bias != nil:
		bs := bias[:len(ys)]
		for j := range ys {
			ys[j] += bs[j]
		}
	}
}

// rowStats returns a row's mean and 1/sqrt(variance + eps) in float64,
// with four partial sums per pass: a single accumulator made the sums
// latency-bound. The sums are the arithmetic of LayerNorm's forward pass,
// not its memory traffic (fusing its passes with the residual's measured
// no faster), so with AVX2 the four partial sums are one vector's lanes.
func rowStats(xs []float32) (mean, rstd float64) {
	var s [4]float64
	n := len(xs) &^ 3
	kernels.Sum4(xs[:n], &s)
	for j := n; j < len(xs); j++ {
		s[0] += float64(xs[j])
	}
	mean = ((s[0] + s[1]) + (s[2] + s[3])) / float64(len(xs))
	s = [4]float64{}
	kernels.Sqdev4(xs[:n], mean, &s)
	for j := n; j < len(xs); j++ {
		dv := float64(xs[j]) - mean
		s[0] += dv * dv
	}
	vr := ((s[0] + s[1]) + (s[2] + s[3])) / float64(len(xs))
	return mean, 1 / math.Sqrt(vr+LayerNormEps)
}

// layerNormBackward adds the gradients of x, gain and bias. One pass over
// the rows recomputes x̂ and feeds both the gain and bias column sums and
// dx, formed as sumColumns2 and the per-row formula always formed them
// (the same sums in the same order), so bit for bit the former two passes.
func (g *Graph) layerNormBackward(x, gain, bias *Tensor, dy, mean, rstd []float32) {
	var dg, db, dx []float32
	if gain != nil && gain.needGrad {
		dg = g.grad(gain)
	}
	if bias != nil && bias.needGrad {
		db = g.grad(bias)
	}
	if x.needGrad {
		dx = g.grad(x)
	}
	if dg == nil && db == nil && dx == nil {
		return
	}
	g.be.LayerNormBackward(x.Data, dataOf(gain), dy, mean, rstd, dx, dg, db, x.Rows(), x.Cols())
}

// LayerNormBackward on the CPU: layerNormBackwardRows.
func (c cpuBackend) LayerNormBackward(x, gain, dy, mean, rstd, dx, dg, db []float32, n, d int) {
	c.g.layerNormBackwardRows(x, gain, dy, mean, rstd, dg, db, dx, n, d, nil)
}

// layerNormBackwardRows adds LayerNorm's gradients to dg, db and dx (any
// may be nil), one row at a time; after(r), when not nil, runs once row r's
// dx is complete, while the row is still in cache (AddDropoutNorm goes on
// back through the residual and the dropout there).
func (g *Graph) layerNormBackwardRows(x, gs, dy, mean, rstd, dg, db, dx []float32, n, d int, after func(r int)) {
	if gs != nil {
		gs = gs[:d]
	}
	c := g.chunks(n, d)
	// per chunk: x̂ of the row, and dĥ = dy·gain
	hbuf, gbuf := g.arena.get(c*d), g.arena.get(c*d)
	g.sumColumns2(dg, db, n, d, func(ch, r int, accG, accB []float32) {
		ds, xs := dy[r*d:(r+1)*d], x[r*d:(r+1)*d]
		hs := hbuf[ch*d : (ch+1)*d]
		lnBackRow(hs, xs, ds, accG, accB, mean[r], rstd[r])
		if dx != nil {
			lnRowDx(dx[r*d:(r+1)*d], ds, hs, gs, gbuf[ch*d:(ch+1)*d], rstd[r])
		}
		if after != nil {
			after(r)
		}
	})
	g.arena.recycle(hbuf)
	g.arena.recycle(gbuf)
}

// lnBackRow writes row x's x̂ into hs and adds dy·x̂ and dy to the gain
// and bias gradients' accumulators, either may be nil (kernels.LnBackRow).
func lnBackRow(hs, xs, ds, accG, accB []float32, m, rs float32) {
	kernels.LnBackRow(hs, xs, ds, accG, accB, m, rs)
}

// lnRowDx adds one row's dx = rstd · (dĥ - mean(dĥ) - ĥ·mean(dĥ·ĥ)),
// dĥ = dy·gain (gain nil: 1), to dxs; gd is scratch of the row's width
// (kernels.LnRowDx).
func lnRowDx(dxs, ds, hs, gs, gd []float32, rstd float32) {
	kernels.LnRowDx(dxs, ds, hs, gs, gd, rstd)
}
