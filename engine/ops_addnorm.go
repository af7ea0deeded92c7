package engine

import (
	"fmt"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// AddDropoutNorm is y = AddDropout(x, f, p) and LayerNorm(y, gain, bias)
// in one pass over the rows: the residual stream of a transformer and the
// next sublayer's normalised input (pre-norm), or the sublayer's output
// (post-norm, where y is only an intermediate). Unfused, the layer norm
// reads y back and its backward writes a gradient into y's buffer that
// AddDropout's backward then reads again; here each row is summed,
// normalised, and on the way back sent through the norm, the residual and
// the dropout while it is in cache. The mask, the dropout key drawn and
// every result equal the unfused chain's bit for bit
// (TestAddDropoutNormIsChain).
//
// Rows whose width is not a multiple of 32 (the mask's word) take the
// unfused chain: a row's mask bits must be whole words for rows to be
// processed in parallel.
func (g *Graph) AddDropoutNorm(x, f *Tensor, p float32, gain, bias *Tensor) (y, norm *Tensor) {
	d, n := x.Cols(), x.Rows()
	mustSameShape("AddDropoutNorm", x, f)
	if (gain != nil && gain.Size() != d) || (bias != nil && bias.Size() != d) {
		panic(fmt.Sprintf("engine.AddDropoutNorm: x %v, gain %v, bias %v", x.Shape(), shapeOf(gain), shapeOf(bias)))
	}
	dropping := g.DropoutOn && p > 0
	if dropping && d%32 != 0 {
		y = g.AddDropout(x, f, p)
		return y, g.LayerNorm(y, gain, bias)
	}
	var key uint64
	var scale float32 = 1
	var threshold uint32
	var mask []uint32
	if dropping {
		key = g.nextDropKey(len(x.Data), true)
		scale = 1 / (1 - p)
		threshold = uint32(float64(p) * (1 << 32))
		mask = g.bitmask(len(x.Data) / 32)
	}
	y = g.newTensor([]*Tensor{x, f}, x.Shape()...)
	norm = g.newTensor([]*Tensor{y, gain, bias}, x.Shape()...)
	var mean, rstd []float32
	if norm.needGrad {
		mean, rstd = g.arena.get(n), g.arena.get(n)
	}
	g.be.AddDropoutNorm(x.Data, f.Data, dataOf(gain), dataOf(bias), y.Data, norm.Data, mean, rstd, mask,
		key, threshold, scale, n, d)
	// y's own entry comes first on the tape, so it runs last: by then the
	// norm's entry has used y's gradient, and the tape can recycle it.
	g.push(y, func() {})
	g.push(norm, func() {
		g.addDropoutNormBackward(x, f, y, norm, gain, bias, mean, rstd, mask, scale)
	})
	return y, norm
}

// AddDropoutNorm on the CPU: each row is summed and normalised while it is
// in cache, rows split over the graph's threads.
func (c cpuBackend) AddDropoutNorm(x, f, gain, bias, y, norm, mean, rstd []float32, mask []uint32,
	key uint64, threshold uint32, scale float32, n, d int) {
	dropping := mask != nil
	c.g.parallel(n, 2*d, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xs, fs, ys := x[r*d:(r+1)*d], f[r*d:(r+1)*d], y[r*d:(r+1)*d]
			if dropping {
				addDropoutRow(ys, xs, fs, mask[r*d/32:(r+1)*d/32], key, r*d, threshold, scale)
			} else {
				for j, v := range xs { // as Add
					ys[j] = v + 1*fs[j]
				}
			}
			mu, rs := rowStats(ys)
			m, rs32 := float32(mu), float32(rs)
			if rstd != nil {
				mean[r], rstd[r] = m, rs32
			}
			normAffineRow(norm[r*d:(r+1)*d], ys, m, rs32, gain, bias)
		}
	})
}

// addDropoutRow is AddDropout's forward pass over one row of whole mask
// words starting at element base: the mask words, then the same
// expression per element as AddDropout's.
func addDropoutRow(ys, xs, fs []float32, mask []uint32, key uint64, base int, threshold uint32, scale float32) {
	kernels.DropMask(mask, key, base, threshold)
	kernels.AddMasked(ys, xs, fs, mask, scale)
}

// addDropoutNormBackward runs the norm's backward into y's gradient (which
// already holds the residual stream's share from y's other consumers) and
// AddDropout's backward from it.
func (g *Graph) addDropoutNormBackward(x, f, y, norm, gain, bias *Tensor, mean, rstd []float32, mask []uint32, scale float32) {
	var dx, df, dg, db, dy []float32
	if x.needGrad {
		dx = g.grad(x)
	}
	if f.needGrad {
		df = g.grad(f)
	}
	if norm.Grad == nil { // only the residual stream has a gradient
		dy = y.Grad
	} else {
		if gain != nil && gain.needGrad {
			dg = g.grad(gain)
		}
		if bias != nil && bias.needGrad {
			db = g.grad(bias)
		}
		if y.needGrad {
			dy = g.grad(y)
		}
	}
	g.be.AddDropoutNormBackward(y.Data, dataOf(gain), norm.Grad, mean, rstd, dy, mask, scale,
		dx, df, dg, db, x.Rows(), x.Cols())
}

// AddDropoutNormBackward on the CPU: the norm's backward row by row and,
// as each row of dy is complete and still in cache, AddDropout's backward
// from it.
func (c cpuBackend) AddDropoutNormBackward(y, gain, dnorm, mean, rstd, dy []float32, mask []uint32, scale float32,
	dx, df, dg, db []float32, n, d int) {
	g := c.g
	through := func(r int) { // AddDropout's backward of row r
		dys := dy[r*d : (r+1)*d]
		if dx != nil {
			axpy(dx[r*d:(r+1)*d], dys, 1) // 1·v is v: the sum dx + v
		}
		if df == nil {
			return
		}
		dfs := df[r*d : (r+1)*d]
		if mask == nil {
			axpy(dfs, dys, 1)
			return
		}
		kernels.AccMasked(dfs, dys, mask[r*d/32:(r+1)*d/32], scale)
	}
	if dnorm == nil { // only the residual stream has a gradient
		if dy != nil {
			g.parallel(n, 2*d, func(_, lo, hi int) {
				for r := lo; r < hi; r++ {
					through(r)
				}
			})
		}
		return
	}
	after := through
	if dy == nil || dx == nil && df == nil {
		after = nil
	}
	g.layerNormBackwardRows(y, gain, dnorm, mean, rstd, dg, db, dy, n, d, after)
}
