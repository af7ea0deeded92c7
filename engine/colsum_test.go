package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// addRows gives the bits of adding the rows one at a time with axpy (the
// bias gradient's old form), on widths with and without strips of 32 and
// 8 and a scalar tail, strided rows, and onto a non-zero accumulator.
func TestAddRowsIsAxpyPerRow(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, d := range []int{1, 7, 8, 13, 32, 40, 100, 128, 512, 8508} {
		for _, rows := range []int{1, 3, 37} {
			ld := d + 3
			src, acc := randVec(r, rows*ld), randVec(r, d)
			for i := range src {
				src[i] *= float32(1 + 1000*r.IntN(2)) // magnitudes apart: order matters
			}
			want := append([]float32(nil), acc...)
			for i := 0; i < rows; i++ {
				axpy(want, src[i*ld:i*ld+d], 1)
			}
			addRows(acc, src, rows, ld)
			for j := range acc {
				if math.Float32bits(acc[j]) != math.Float32bits(want[j]) {
					t.Fatalf("d=%d rows=%d: column %d = %v, axpy per row %v", d, rows, j, acc[j], want[j])
				}
			}
		}
	}
}
