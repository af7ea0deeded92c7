package engine

import (
	"fmt"
	"math"
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
	g.parallel(n, 2*d, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xs, fs, ys := x.Data[r*d:(r+1)*d], f.Data[r*d:(r+1)*d], y.Data[r*d:(r+1)*d]
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
			normAffineRow(norm.Data[r*d:(r+1)*d], ys, m, rs32, gain, bias)
		}
	})
	// y's own entry comes first on the tape, so it runs last: by then the
	// norm's entry has used y's gradient, and the tape can recycle it.
	g.push(y, func() {})
	g.push(norm, func() {
		g.addDropoutNormBackward(x, f, y, norm, gain, bias, mean, rstd, mask, scale)
	})
	return y, norm
}

// addDropoutRow is AddDropout's forward pass over one row of whole mask
// words starting at element base: the same expression per element.
func addDropoutRow(ys, xs, fs []float32, mask []uint32, key uint64, base int, threshold uint32, scale float32) {
	for w := range mask {
		o := w * 32
		f32, x32, y32 := fs[o:o+32], xs[o:o+32], ys[o:o+32]
		var bits uint32
		for j, v := range f32 {
			var k uint32
			if keep(key, base+o+j, threshold) {
				k = 1
			}
			bits |= k << j
			y32[j] = x32[j] + math.Float32frombits(math.Float32bits(v*scale)&-k)
		}
		mask[w] = bits
	}
}

// addDropoutNormBackward runs the norm's backward into y's gradient (which
// already holds the residual stream's share from y's other consumers) and,
// row by row as each is complete, AddDropout's backward from it.
func (g *Graph) addDropoutNormBackward(x, f, y, norm, gain, bias *Tensor, mean, rstd []float32, mask []uint32, scale float32) {
	d, n := x.Cols(), x.Rows()
	var dx, df []float32
	if x.needGrad {
		dx = g.grad(x)
	}
	if f.needGrad {
		df = g.grad(f)
	}
	through := func(r int) { // AddDropout's backward of row r
		dys := y.Grad[r*d : (r+1)*d]
		if dx != nil {
			dxs := dx[r*d : (r+1)*d]
			for j, v := range dys {
				dxs[j] += v
			}
		}
		if df == nil {
			return
		}
		dfs := df[r*d : (r+1)*d]
		if mask == nil {
			for j, v := range dys {
				dfs[j] += v
			}
			return
		}
		for w, bits := range mask[r*d/32 : (r+1)*d/32] {
			o := w * 32
			for j, v := range dys[o : o+32] {
				dfs[o+j] += math.Float32frombits(math.Float32bits(v*scale) & -(bits >> j & 1))
			}
		}
	}
	if norm.Grad == nil { // only the residual stream has a gradient
		if y.Grad != nil {
			g.parallel(n, 2*d, func(_, lo, hi int) {
				for r := lo; r < hi; r++ {
					through(r)
				}
			})
		}
		return
	}
	var dg, db []float32
	if gain != nil && gain.needGrad {
		dg = g.grad(gain)
	}
	if bias != nil && bias.needGrad {
		db = g.grad(bias)
	}
	var dy []float32
	after := through
	if y.needGrad {
		dy = g.grad(y)
	}
	if dy == nil || dx == nil && df == nil {
		after = nil
	}
	g.layerNormBackwardRows(y, gain, bias, norm.Grad, mean, rstd, dg, db, dy, after)
}
