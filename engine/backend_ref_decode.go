package engine

import "math"

// The reference backend's decoding ops: attention over a cache as the
// definition (scores, softmax and context in float64, the cache's halves
// widened exactly to float32 first), cache writes, and the in-place
// log-softmax.

func (r *refBackend) StepAttention(q []float32, ldq, n, tk, heads, dh int, kv KVRows, ctx, probs []float32) {
	d := heads * dh
	keys, vals := make([][]float64, tk), make([][]float64, tk)
	for i := 0; i < n; i++ {
		var pad []bool
		if kv.Pad != nil {
			pad = kv.Pad[i*tk : (i+1)*tk]
		}
		for h := 0; h < heads; h++ {
			for j := 0; j < tk; j++ {
				keys[j] = refCacheRow(kv, tk, i, j, kv.KCol+h*dh, dh)
				vals[j] = refCacheRow(kv, tk, i, j, kv.VCol+h*dh, dh)
			}
			refAttend(q[i*ldq+h*dh:][:dh], keys, vals, pad, probs[(i*heads+h)*tk:][:tk], ctx[i*d+h*dh:][:dh])
		}
	}
}

func (r *refBackend) BlockAttention(q []float32, ldq, n, heads, dh int, kv KVBlocks, ctx, probs []float32) {
	d, tk := heads*dh, kv.TK
	keys, vals := make([][]float64, tk), make([][]float64, tk)
	for i := 0; i < n; i++ {
		b := int(kv.Block[i])
		var pad []bool
		if kv.Pad != nil {
			pad = kv.Pad[b*tk : (b+1)*tk]
		}
		for h := 0; h < heads; h++ {
			for j := 0; j < tk; j++ {
				row := kv.Data[(b*tk+j)*kv.LD:]
				keys[j] = widen(row[kv.KCol+h*dh:][:dh])
				vals[j] = widen(row[kv.VCol+h*dh:][:dh])
			}
			refAttend(q[i*ldq+h*dh:][:dh], keys, vals, pad, probs[(i*heads+h)*tk:][:tk], ctx[i*d+h*dh:][:dh])
		}
	}
}

// refCacheRow is the d floats from column col of the cache row holding key
// position j of query i: in kv's one buffer, or in the page holding
// position j; halves are widened exactly.
func refCacheRow(kv KVRows, tk, i, j, col, d int) []float64 {
	data, half := kv.Data, kv.Half
	if kv.Pages != nil {
		lo := 0
		for _, pg := range kv.Pages {
			if j < lo+pg.Keys {
				data, half = pg.Data, pg.Half
				break
			}
			lo += pg.Keys
		}
	}
	off := int(kv.Index[i*tk+j])*kv.LD + col
	if half == nil {
		return widen(data[off : off+d])
	}
	out := make([]float64, d)
	for c := range out {
		out[c] = float64(Float32FromHalf(half[off+c]))
	}
	return out
}

// widen is xs in float64.
func widen(xs []float32) []float64 {
	out := make([]float64, len(xs))
	for i, v := range xs {
		out[i] = float64(v)
	}
	return out
}

// refAttend is one query's attention over its keys and values: scores
// q·k/√dh, padded keys excluded, their softmax into p (padded keys 0, all
// zeros when every key is padded) and Σ p·v into out.
func refAttend(q []float32, keys, vals [][]float64, pad []bool, p, out []float32) {
	dh := len(q)
	s := make([]float64, len(keys))
	for j, k := range keys {
		s[j] = math.Inf(-1)
		if pad != nil && pad[j] {
			continue
		}
		var dot float64
		for c, kc := range k {
			dot += float64(q[c]) * kc
		}
		s[j] = dot / math.Sqrt(float64(dh))
	}
	refSoftmaxMasked(s)
	acc := make([]float64, dh)
	for j, v := range vals {
		w := s[j]
		p[j] = float32(w)
		for c := range acc {
			acc[c] += w * v[c]
		}
	}
	for c, a := range acc {
		out[c] = float32(a)
	}
}

func (r *refBackend) StoreRows(dst []float32, ld, first int, src []float32, lds, n, width int) {
	for i := 0; i < n; i++ {
		for c := 0; c < width; c++ {
			dst[(first+i)*ld+c] = src[i*lds+c]
		}
	}
}

func (r *refBackend) StoreRowsHalf(dst []uint16, ld, first int, src []float32, lds, n, width int) {
	for i := 0; i < n; i++ {
		for c := 0; c < width; c++ {
			dst[(first+i)*ld+c] = refHalf(src[i*lds+c])
		}
	}
}

// refHalf rounds f to the nearest binary16, ties to even, from the format's
// definition rather than bit manipulation: halves in [2^e, 2^(e+1)) are the
// multiples of 2^(e-10) for e ≥ -14, those below 2^-14 the multiples of
// 2^-24; a result above 65504 is Inf.
func refHalf(f float32) uint16 {
	x := float64(f)
	var sign uint16
	if math.Signbit(x) {
		sign, x = 0x8000, -x
	}
	switch {
	case math.IsNaN(x):
		return sign | 0x7e00
	case math.IsInf(x, 1):
		return sign | 0x7c00
	}
	_, e := math.Frexp(x) // x in [2^(e-1), 2^e)
	e = max(e-1, -14)
	q := math.Ldexp(1, e-10)
	m := math.RoundToEven(x/q) * q
	if m > 65504 {
		return sign | 0x7c00
	}
	if m < math.Ldexp(1, -14) {
		return sign | uint16(m/math.Ldexp(1, -24)) // subnormal (or 0)
	}
	_, e = math.Frexp(m)
	mant := m/math.Ldexp(1, e-1)*1024 - 1024
	return sign | uint16(e-1+15)<<10 | uint16(mant)
}

func (r *refBackend) LogSoftmaxInPlace(x []float32, n, v int) { r.LogSoftmax(x, x, n, v) }
