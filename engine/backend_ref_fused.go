package engine

import "math"

// The reference backend's fused residual-and-norm and shortlisted output
// layer, composed of its own primitives.

// AddDropoutNorm composes AddDropout (or the plain sum without a mask) and
// LayerNorm.
func (r *refBackend) AddDropoutNorm(x, f, gain, bias, y, norm, mean, rstd []float32, mask []uint32,
	key uint64, threshold uint32, scale float32, n, d int) {
	if mask != nil {
		r.AddDropout(x, f, y, mask, key, threshold, scale)
	} else {
		r.AddScaled(x, f, y, 1)
	}
	r.LayerNorm(y, gain, bias, norm, mean, rstd, n, d)
}

// AddDropoutNormBackward composes LayerNormBackward into dy and
// AddDropout's backward from it.
func (r *refBackend) AddDropoutNormBackward(y, gain, dnorm, mean, rstd, dy []float32, mask []uint32, scale float32,
	dx, df, dgain, dbias []float32, n, d int) {
	if dnorm != nil {
		r.LayerNormBackward(y, gain, dnorm, mean, rstd, dy, dgain, dbias, n, d)
	}
	if dy == nil {
		return
	}
	if mask != nil {
		r.AddDropoutBackward(dy, dx, df, mask, scale)
		return
	}
	for _, dst := range [][]float32{dx, df} {
		if dst != nil {
			r.Axpy(dst, dy, 1)
		}
	}
}

func (r *refBackend) OutputRows(sub []float32, rows []int32, y []float32, n, v int) {
	k := len(rows)
	for i := 0; i < n; i++ {
		for j := 0; j < v; j++ {
			y[i*v+j] = float32(math.Inf(-1))
		}
		for c, row := range rows {
			y[i*v+int(row)] = sub[i*k+c]
		}
	}
}
