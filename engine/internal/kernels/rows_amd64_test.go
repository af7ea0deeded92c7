//go:build !purego

package kernels

import (
	"math"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// The dot kernels take four keys at a time while four remain and one at a
// time after: a key's score must be the same bits either way (it would
// otherwise depend on how many keys a page holds).
func TestDotRowsFourKeyPathMatchesOne(t *testing.T) {
	if !cpu.Detected.AVX2FMA || !cpu.Detected.F16C {
		t.Skip("no AVX2/FMA/F16C on this CPU")
	}
	const ld, col, rows = 200, 3, 11
	data, half := cacheRows(ld * rows)
	idx := []int32{4, 0, 10, 4, 7, 2, 9, 1, 3}
	for _, dh := range []int{8, 16, 24, 64, 72} {
		q := testData(dh)
		all, one := make([]float32, len(idx)), make([]float32, 1)
		for _, hf := range []bool{false, true} {
			if hf {
				DotRowsHalfAVX2(&q[0], dh, &half[col], &idx[0], len(idx), ld, &all[0], 0.125)
			} else {
				DotRowsAVX2(&q[0], dh, &data[col], &idx[0], len(idx), ld, &all[0], 0.125)
			}
			for j := range idx {
				if hf {
					DotRowsHalfAVX2(&q[0], dh, &half[col], &idx[j], 1, ld, &one[0], 0.125)
				} else {
					DotRowsAVX2(&q[0], dh, &data[col], &idx[j], 1, ld, &one[0], 0.125)
				}
				if math.Float32bits(all[j]) != math.Float32bits(one[0]) {
					t.Fatalf("half %v, dh %d: key %d scores %v among %d keys, %v alone", hf, dh, j, all[j], len(idx), one[0])
				}
			}
		}
	}
}

// The axpy kernels take 64 columns per pass while 64 remain and 32 after:
// a column's sum must be the same bits either way.
func TestAxpyRowsWidePathMatchesNarrow(t *testing.T) {
	if !cpu.Detected.AVX2FMA || !cpu.Detected.F16C {
		t.Skip("no AVX2/FMA/F16C on this CPU")
	}
	const ld, col, rows = 300, 5, 9
	data, half := cacheRows(ld * rows)
	idx := []int32{4, 0, 8, 4, 7, 2, 1}
	p := testData(len(idx))
	p[3] = 0
	for _, dh := range []int{64, 96, 128, 160} {
		for _, hf := range []bool{false, true} {
			wide, narrow := testData(dh), make([]float32, dh)
			copy(narrow, wide)
			if hf {
				AxpyRowsHalfAVX2(&wide[0], dh, &half[col], &idx[0], &p[0], len(idx), ld)
			} else {
				AxpyRowsAVX2(&wide[0], dh, &data[col], &idx[0], &p[0], len(idx), ld)
			}
			for c := 0; c < dh; c += 32 {
				if hf {
					AxpyRowsHalfAVX2(&narrow[c], 32, &half[col+c], &idx[0], &p[0], len(idx), ld)
				} else {
					AxpyRowsAVX2(&narrow[c], 32, &data[col+c], &idx[0], &p[0], len(idx), ld)
				}
			}
			for k := range wide {
				if math.Float32bits(wide[k]) != math.Float32bits(narrow[k]) {
					t.Fatalf("half %v, dh %d: column %d is %v in one call, %v in 32-column calls", hf, dh, k, wide[k], narrow[k])
				}
			}
		}
	}
}

// cacheRows is n cache values as float32 and as halves.
func cacheRows(n int) ([]float32, []uint16) {
	data := testData(n)
	half := make([]uint16, n)
	for i, v := range data {
		half[i] = HalfFromFloat32(v)
	}
	return data, half
}
