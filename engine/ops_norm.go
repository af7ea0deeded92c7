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
		gs, bs := gain[:len(ys)], bias[:len(ys)]
		j := 0
		if normAsm && len(ys) >= 8 {
			j = len(ys) &^ 7
			kernels.NormAffineAVX2(&ys[0], &xs[0], &gs[0], &bs[0], j, m, rs)
		}
		for ; j < len(ys); j++ {
			ys[j] = (xs[j]-m)*rs*gs[j] + bs[j]
		}
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

// normAsm: LayerNorm's row arithmetic runs in AVX2 (norm_amd64.s), bit for
// bit the Go loops' (tests turn it off to compare).
var normAsm = haveAVX2FMA

// rowStats returns a row's mean and 1/sqrt(variance + eps) in float64,
// with four partial sums per pass: a single accumulator made the sums
// latency-bound. The sums are the arithmetic of LayerNorm's forward pass,
// not its memory traffic (fusing its passes with the residual's measured
// no faster), so with AVX2 the four partial sums are one vector's lanes.
func rowStats(xs []float32) (mean, rstd float64) {
	var s [4]float64
	n := len(xs) &^ 3
	if normAsm && n > 0 {
		kernels.Sum4AVX2(&xs[0], n, &s)
	} else {
		for j := 0; j < n; j += 4 {
			s[0] += float64(xs[j])
			s[1] += float64(xs[j+1])
			s[2] += float64(xs[j+2])
			s[3] += float64(xs[j+3])
		}
	}
	for j := n; j < len(xs); j++ {
		s[0] += float64(xs[j])
	}
	mean = ((s[0] + s[1]) + (s[2] + s[3])) / float64(len(xs))
	s = [4]float64{}
	if normAsm && n > 0 {
		kernels.Sqdev4AVX2(&xs[0], n, mean, &s)
	} else {
		for j := 0; j < n; j += 4 {
			d0, d1, d2, d3 := float64(xs[j])-mean, float64(xs[j+1])-mean, float64(xs[j+2])-mean, float64(xs[j+3])-mean
			s[0] += d0 * d0
			s[1] += d1 * d1
			s[2] += d2 * d2
			s[3] += d3 * d3
		}
	}
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
// and bias gradients' accumulators (either may be nil).
func lnBackRow(hs, xs, ds, accG, accB []float32, m, rs float32) {
	d := len(hs)
	xs, ds = xs[:d], ds[:d]
	n8 := 0
	if normAsm && accG != nil && accB != nil && d >= 8 {
		n8 = d &^ 7
		accG, accB = accG[:d], accB[:d]
		kernels.LnBackRowAVX2(&xs[0], &ds[0], &hs[0], &accG[0], &accB[0], n8, m, rs)
	}
	normRow(hs[n8:], xs[n8:], m, rs)
	if accG != nil {
		accG = accG[:d]
		for j := n8; j < d; j++ {
			accG[j] += ds[j] * hs[j]
		}
	}
	if accB != nil {
		axpy(accB[n8:d], ds[n8:], 1)
	}
}

// lnRowDx adds one row's dx = rstd · (dĥ - mean(dĥ) - ĥ·mean(dĥ·ĥ)),
// dĥ = dy·gain (gain nil: 1), to dxs; gd is scratch of the row's width.
func lnRowDx(dxs, ds, hs, gs, gd []float32, rstd float32) {
	d := len(ds)
	dxs, hs, gd = dxs[:d], hs[:d], gd[:d]
	if gs != nil {
		gs = gs[:d]
		for j, dv := range ds {
			gd[j] = dv * gs[j]
		}
	} else {
		copy(gd, ds)
	}
	// four partial sums of each, as rowStats: one accumulator made the
	// loop latency-bound (float64 products of float32 values are exact, so
	// only the sums' rounding moves, by parts in 2⁻⁵³)
	var a, b [4]float64
	n4 := d &^ 3
	if normAsm && n4 > 0 {
		lnRowDxAVX2(dxs, gd, hs, n4, &a, &b, rstd)
		return
	}
	for j := 0; j < n4; j += 4 {
		g0, g1, g2, g3 := float64(gd[j]), float64(gd[j+1]), float64(gd[j+2]), float64(gd[j+3])
		a[0] += g0
		a[1] += g1
		a[2] += g2
		a[3] += g3
		b[0] += g0 * float64(hs[j])
		b[1] += g1 * float64(hs[j+1])
		b[2] += g2 * float64(hs[j+2])
		b[3] += g3 * float64(hs[j+3])
	}
	m1, m2 := lnRowMeans(gd, hs, n4, &a, &b)
	rs := float64(rstd)
	for j, dv := range gd {
		dxs[j] += float32(rs * (float64(dv) - m1 - float64(hs[j])*m2))
	}
}

// lnRowMeans adds the elements from n4 on to the first partial sums and
// gives the means of gd and gd·hs, combining the four partial sums in the
// same order for the Go and the AVX2 paths (so both give the same bits).
func lnRowMeans(gd, hs []float32, n4 int, a, b *[4]float64) (m1, m2 float64) {
	d := len(gd)
	for j := n4; j < d; j++ {
		a[0] += float64(gd[j])
		b[0] += float64(gd[j]) * float64(hs[j])
	}
	m1 = ((a[0] + a[1]) + (a[2] + a[3])) / float64(d)
	m2 = ((b[0] + b[1]) + (b[2] + b[3])) / float64(d)
	return m1, m2
}

// lnRowDxAVX2 is lnRowDx's sums and update with the first n4 elements (a
// multiple of 4) in AVX2 and the rest in Go, in the Go loops' order.
func lnRowDxAVX2(dxs, gd, hs []float32, n4 int, a, b *[4]float64, rstd float32) {
	d := len(gd)
	var ab [8]float64
	kernels.LnSums4AVX2(&gd[0], &hs[0], n4, &ab)
	copy(a[:], ab[:4])
	copy(b[:], ab[4:])
	m1, m2 := lnRowMeans(gd, hs, n4, a, b)
	rs := float64(rstd)
	kernels.LnDx4AVX2(&dxs[0], &gd[0], &hs[0], n4, m1, m2, rs)
	for j := n4; j < d; j++ {
		dxs[j] += float32(rs * (float64(gd[j]) - m1 - float64(hs[j])*m2))
	}
}
