package kernels

import "math"

// Half-precision (IEEE 754 binary16) conversions and the gathered products
// of decoding attention over a cache of halves. Written by hand because Go
// has no float16 type and the gathered reads need F16C's VCVTPH2PS inside
// the kernels (half_amd64.s); the Go functions are the references.

// HalfFromFloat32 rounds f to the nearest binary16 (ties to even): values
// beyond the largest half (65504) become ±Inf, values below the smallest
// subnormal (2^-24) become ±0 or round to it, NaN stays NaN.
func HalfFromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	man := b & 0x7fffff
	if exp == 0xff { // Inf or NaN (kept quiet)
		if man != 0 {
			return sign | 0x7e00 | uint16(man>>13)
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 0x1f {
		return sign | 0x7c00
	}
	if e <= 0 { // a subnormal half (or zero): m·2^-24
		if e < -10 {
			return sign
		}
		m := man | 0x800000
		shift := uint(14 - e)
		h := m >> shift
		rem, mid := m&(1<<shift-1), uint32(1)<<(shift-1)
		if rem > mid || rem == mid && h&1 == 1 {
			h++ // may carry into the smallest normal, which is right
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | man>>13
	if rem := man & 0x1fff; rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
		h++ // may carry into the exponent, up to Inf, which is right
	}
	return sign | uint16(h)
}

// Float32FromHalf widens a binary16 value (exact).
func Float32FromHalf(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		f := float32(man) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// Halves sets dst[k] = HalfFromFloat32(src[k]).
func Halves(dst []uint16, src []float32) {
	n := 0
	if f16c {
		if n = len(src) &^ 7; n > 0 {
			HalvesF16C(&dst[0], &src[0], n)
		}
	}
	for k := n; k < len(src); k++ {
		dst[k] = HalfFromFloat32(src[k])
	}
}

// GatherScoresHalf is GatherScores over rows of halves.
func GatherScoresHalf(p, q []float32, data []uint16, col, ld int, idx []int32, scale float32) {
	if f16c && len(q)%8 == 0 && len(idx) > 0 {
		DotRowsHalfAVX2(&q[0], len(q), &data[col], &idx[0], len(idx), ld, &p[0], scale)
		return
	}
	GatherScoresHalfGo(p, q, data, col, ld, idx, scale)
}

// GatherScoresHalfGo is GatherScoresHalf in Go.
func GatherScoresHalfGo(p, q []float32, data []uint16, col, ld int, idx []int32, scale float32) {
	for j, r := range idx {
		row := data[int(r)*ld+col:][:len(q)]
		var s float32
		for k, h := range row {
			s += q[k] * Float32FromHalf(h)
		}
		p[j] = scale * s
	}
}

// GatherSumHalf is GatherSum over rows of halves.
func GatherSumHalf(out, p []float32, data []uint16, col, ld int, idx []int32) {
	if f16c && len(out)%32 == 0 && len(idx) > 0 {
		AxpyRowsHalfAVX2(&out[0], len(out), &data[col], &idx[0], &p[0], len(idx), ld)
		return
	}
	GatherSumHalfGo(out, p, data, col, ld, idx)
}

// GatherSumHalfGo is GatherSumHalf in Go.
func GatherSumHalfGo(out, p []float32, data []uint16, col, ld int, idx []int32) {
	for j, r := range idx {
		if p[j] == 0 {
			continue
		}
		row := data[int(r)*ld+col:][:len(out)]
		for k, h := range row {
			out[k] += p[j] * Float32FromHalf(h)
		}
	}
}
