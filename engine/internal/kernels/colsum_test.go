package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestAddRowsMatchesReference: the AVX2 strips give AddRowsGo's bits on
// widths with and without strips of 32 and 8 and a scalar tail, strided
// rows, and onto a non-zero accumulator.
func TestAddRowsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, d := range []int{1, 7, 8, 13, 32, 40, 100, 128, 512, 8508} {
		for _, rows := range []int{1, 3, 37} {
			ld := d + 3
			src, acc := randF32(r, rows*ld), randF32(r, d)
			for i := range src {
				src[i] *= float32(1 + 1000*r.IntN(2)) // magnitudes apart: order matters
			}
			want := append([]float32(nil), acc...)
			AddRowsGo(want, src, rows, ld)
			if !withAVX2(t, func() { AddRows(acc, src, rows, ld) }) {
				return
			}
			sameBits(t, fmt.Sprintf("d=%d rows=%d", d, rows), acc, want)
		}
	}
}
