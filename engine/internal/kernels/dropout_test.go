package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The dropout kernels give the Go references' bits, and DropMaskGo is the
// definition: the mask bit of every element is Keep(key, i, threshold), and
// the masked sums are the per-element expressions (keys near 2^64 wrap,
// thresholds at both ends, a negative zero in x).
func TestDropoutRowsMatchGo(t *testing.T) {
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
		ref, def := make([]uint32, words), make([]uint32, words)
		DropMaskGo(ref, key, base, thr)
		for i := 0; i < 32*words; i++ {
			if Keep(key, base+i, thr) {
				def[i/32] |= 1 << (i % 32)
			}
		}
		vec := make([]uint32, words)
		ran := withAVX2(t, func() { DropMask(vec, key, base, thr) })
		for w := range def {
			if ref[w] != def[w] || ran && vec[w] != def[w] {
				t.Fatalf("trial %d word %d: masks %032b (Go) %032b (kernel), want %032b", trial, w, ref[w], vec[w], def[w])
			}
		}
		n := 32 * words
		xs, fs := randF32(r, n), randF32(r, n)
		xs[0] = float32(math.Copysign(0, -1))
		scale := float32(1 / 0.9)
		yv, yg := make([]float32, n), make([]float32, n)
		AddMaskedGo(yg, xs, fs, def, scale)
		dv, dg := append([]float32(nil), xs...), append([]float32(nil), xs...)
		AccMaskedGo(dg, fs, def, scale)
		for i := range yg {
			want := xs[i] + 0
			if def[i/32]>>(i%32)&1 == 1 {
				want = xs[i] + float32(fs[i]*scale)
			}
			if math.Float32bits(yg[i]) != math.Float32bits(want) || math.Float32bits(dg[i]) != math.Float32bits(want) {
				t.Fatalf("trial %d element %d: add %v, acc %v, want %v", trial, i, yg[i], dg[i], want)
			}
		}
		if ran {
			withAVX2(t, func() {
				AddMasked(yv, xs, fs, def, scale)
				AccMasked(dv, fs, def, scale)
			})
			sameBits(t, "AddMasked", yv, yg)
			sameBits(t, "AccMasked", dv, dg)
		}
	}
}
