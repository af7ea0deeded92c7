package engine

import (
	"fmt"
	"math"

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

// dropMaskRow sets bit j of mask[w] to keep(key, base+32w+j, threshold),
// four hashes at a time on the vector kernel (vec; dropout_amd64.s): the
// per-element SplitMix64 was half of the residual-and-norm ops' time.
func dropMaskRow(mask []uint32, key uint64, base int, threshold uint32, vec bool) {
	if vec && len(mask) > 0 {
		kernels.DropMaskAVX2(&mask[0], len(mask), key+uint64(base), threshold)
		return
	}
	for w := range mask {
		var bits uint32
		for j := 0; j < 32; j++ {
			var k uint32
			if keep(key, base+32*w+j, threshold) { // compiled to a flag, not a branch
				k = 1
			}
			bits |= k << j
		}
		mask[w] = bits
	}
}

// maskedScale is v·scale where bit j of bits is set, +0 where it is not.
func maskedScale(v, scale float32, bits uint32, j int) float32 {
	return math.Float32frombits(math.Float32bits(v*scale) & -(bits >> j & 1))
}

// addMaskedRow sets ys[i] = xs[i] + maskedScale(fs[i]) over 32·len(mask)
// elements.
func addMaskedRow(ys, xs, fs []float32, mask []uint32, scale float32, vec bool) {
	n := 32 * len(mask)
	ys, xs, fs = ys[:n], xs[:n], fs[:n]
	if vec && n > 0 {
		kernels.AddMaskedAVX2(&ys[0], &xs[0], &fs[0], &mask[0], len(mask), scale)
		return
	}
	for i, v := range fs {
		ys[i] = xs[i] + maskedScale(v, scale, mask[i/32], i%32)
	}
}

// accMaskedRow adds maskedScale(src[i]) to dst[i] over 32·len(mask) elements
// (dropout's backward).
func accMaskedRow(dst, src []float32, mask []uint32, scale float32, vec bool) {
	n := 32 * len(mask)
	dst, src = dst[:n], src[:n]
	if vec && n > 0 {
		kernels.AccMaskedAVX2(&dst[0], &src[0], &mask[0], len(mask), scale)
		return
	}
	for i, v := range src {
		dst[i] += maskedScale(v, scale, mask[i/32], i%32)
	}
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
