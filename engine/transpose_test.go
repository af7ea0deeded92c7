package engine

import (
	"fmt"
	"testing"
)

// TestTransposeMatchesLoop checks the blocked transpose against the plain
// loop on shapes with and without 8×8 tails, strided rows included, into a
// compact destination and into one with padded rows (attention's scores),
// whose padding must become zeros, and that nothing outside the
// cols×ldd destination is written.
func TestTransposeMatchesLoop(t *testing.T) {
	for _, sh := range []struct{ rows, cols, ld int }{
		{8, 8, 8}, {32, 32, 128}, {31, 32, 96}, {33, 17, 40}, {7, 64, 64}, {40, 7, 9}, {1, 1, 1}, {16, 24, 200},
	} {
		for _, ldd := range []int{sh.rows, scoreStride(sh.rows) + 8} {
			t.Run(fmt.Sprintf("%dx%d_ld%d_ldd%d", sh.rows, sh.cols, sh.ld, ldd), func(t *testing.T) {
				src := benchData((sh.rows-1)*sh.ld + sh.cols)
				want := make([]float32, ldd*sh.cols+8)
				got := make([]float32, len(want))
				for i := range got {
					got[i], want[i] = -7, -7
				}
				for c := 0; c < sh.cols; c++ {
					for r := 0; r < ldd; r++ {
						want[c*ldd+r] = 0
						if r < sh.rows {
							want[c*ldd+r] = src[r*sh.ld+c]
						}
					}
				}
				transpose(got[:ldd*sh.cols], ldd, src, sh.rows, sh.cols, sh.ld)
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("element %d: %v, want %v", i, got[i], want[i])
					}
				}
			})
		}
	}
}
