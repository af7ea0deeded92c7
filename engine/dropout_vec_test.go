package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The vector dropout passes must give the scalar definitions' bits: the
// mask bit of every element is keep(key, i, threshold), and the masked sums
// are the per-element expressions (keys near 2^64 wrap, thresholds at both
// ends, a negative zero in x).
func TestDropoutRowsMatchScalar(t *testing.T) {
	if !haveAVX2FMA {
		t.Skip("no AVX2+FMA: only the scalar path exists here")
	}
	r := rand.New(rand.NewPCG(11, 12))
	thresholds := []uint32{0, 1, 1 << 31, 429496729, math.MaxUint32}
	for trial := 0; trial < 60; trial++ {
		words := 1 + r.IntN(6)
		key := r.Uint64()
		if trial%10 == 0 {
			key = math.MaxUint64 - uint64(r.IntN(100))
		}
		base, thr := r.IntN(1<<20), thresholds[trial%len(thresholds)]
		if trial%3 == 0 {
			thr = r.Uint32()
		}
		vec, ref := make([]uint32, words), make([]uint32, words)
		dropMaskRow(vec, key, base, thr, true)
		for i := 0; i < 32*words; i++ {
			if keep(key, base+i, thr) {
				ref[i/32] |= 1 << (i % 32)
			}
		}
		for w := range vec {
			if vec[w] != ref[w] {
				t.Fatalf("trial %d word %d: mask %032b, want %032b", trial, w, vec[w], ref[w])
			}
		}
		n := 32 * words
		xs, fs := make([]float32, n), make([]float32, n)
		for i := range xs {
			xs[i], fs[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
		}
		xs[0] = float32(math.Copysign(0, -1))
		scale := float32(1 / 0.9)
		yv, yg := make([]float32, n), make([]float32, n)
		addMaskedRow(yv, xs, fs, ref, scale, true)
		addMaskedRow(yg, xs, fs, ref, scale, false)
		dv, dg := append([]float32(nil), xs...), append([]float32(nil), xs...)
		accMaskedRow(dv, fs, ref, scale, true)
		accMaskedRow(dg, fs, ref, scale, false)
		for i := range yv {
			if math.Float32bits(yv[i]) != math.Float32bits(yg[i]) || math.Float32bits(dv[i]) != math.Float32bits(dg[i]) {
				t.Fatalf("trial %d element %d: add %v/%v, acc %v/%v (vector/scalar)", trial, i, yv[i], yg[i], dv[i], dg[i])
			}
		}
	}
}
