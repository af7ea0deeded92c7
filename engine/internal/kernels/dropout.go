package kernels

import "math"

// Dropout's generator, and its mask and masked sums over rows of whole
// mask words (32 elements to a word, bit j of word w for element 32w+j):
// AVX2 assembly (dropout_amd64.s) where the CPU has it, else the Go
// references, which give the same bits.

// Keep reports whether element i of the dropout op with this key is kept:
// the top half of SplitMix(key+i) against threshold.
func Keep(key uint64, i int, threshold uint32) bool {
	return uint32(SplitMix(key+uint64(i))>>32) >= threshold
}

// SplitMix is the SplitMix64 finaliser: a cheap, well-mixed 64-bit hash.
func SplitMix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// DropMask sets bit j of mask[w] to Keep(key, base+32w+j, threshold),
// four hashes at a time in AVX2: the per-element SplitMix64 was half of
// the residual-and-norm ops' time.
func DropMask(mask []uint32, key uint64, base int, threshold uint32) {
	if avx2 && len(mask) > 0 {
		DropMaskAVX2(&mask[0], len(mask), key+uint64(base), threshold)
		return
	}
	DropMaskGo(mask, key, base, threshold)
}

// DropMaskGo is DropMask in Go.
func DropMaskGo(mask []uint32, key uint64, base int, threshold uint32) {
	for w := range mask {
		var bits uint32
		for j := 0; j < 32; j++ {
			var k uint32
			if Keep(key, base+32*w+j, threshold) { // compiled to a flag, not a branch
				k = 1
			}
			bits |= k << j
		}
		mask[w] = bits
	}
}

// MaskedScale is v·scale where bit j of bits is set, +0 where it is not
// (the engine's dropout backward calls it too).
func MaskedScale(v, scale float32, bits uint32, j int) float32 {
	return math.Float32frombits(math.Float32bits(v*scale) & -(bits >> j & 1))
}

// AddMasked sets ys[i] = xs[i] + fs[i]·scale where mask bit i is set, and
// xs[i] + 0 where it is not, over 32·len(mask) elements (dropout on a
// residual branch).
func AddMasked(ys, xs, fs []float32, mask []uint32, scale float32) {
	n := 32 * len(mask)
	if avx2 && n > 0 {
		ys, xs, fs = ys[:n], xs[:n], fs[:n]
		AddMaskedAVX2(&ys[0], &xs[0], &fs[0], &mask[0], len(mask), scale)
		return
	}
	AddMaskedGo(ys, xs, fs, mask, scale)
}

// AddMaskedGo is AddMasked in Go.
func AddMaskedGo(ys, xs, fs []float32, mask []uint32, scale float32) {
	n := 32 * len(mask)
	ys, xs, fs = ys[:n], xs[:n], fs[:n]
	for i, v := range fs {
		ys[i] = xs[i] + MaskedScale(v, scale, mask[i/32], i%32)
	}
}

// AccMasked adds src[i]·scale (or +0 where mask bit i is clear) to dst[i]
// over 32·len(mask) elements (dropout's backward).
func AccMasked(dst, src []float32, mask []uint32, scale float32) {
	n := 32 * len(mask)
	if avx2 && n > 0 {
		dst, src = dst[:n], src[:n]
		AccMaskedAVX2(&dst[0], &src[0], &mask[0], len(mask), scale)
		return
	}
	AccMaskedGo(dst, src, mask, scale)
}

// AccMaskedGo is AccMasked in Go.
func AccMaskedGo(dst, src []float32, mask []uint32, scale float32) {
	n := 32 * len(mask)
	dst, src = dst[:n], src[:n]
	for i, v := range src {
		dst[i] += MaskedScale(v, scale, mask[i/32], i%32)
	}
}
