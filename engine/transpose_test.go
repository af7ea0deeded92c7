package engine

import (
	"fmt"
	"testing"
)

// TestTransposeMatchesLoop checks the blocked transpose against the plain
// loop on shapes with and without 8×8 tails, strided rows included, and
// that nothing outside the cols×rows destination is written.
func TestTransposeMatchesLoop(t *testing.T) {
	for _, sh := range []struct{ rows, cols, ld int }{
		{8, 8, 8}, {32, 32, 128}, {31, 32, 96}, {33, 17, 40}, {7, 64, 64}, {40, 7, 9}, {1, 1, 1}, {16, 24, 200},
	} {
		t.Run(fmt.Sprintf("%dx%d_ld%d", sh.rows, sh.cols, sh.ld), func(t *testing.T) {
			src := benchData((sh.rows-1)*sh.ld + sh.cols)
			want := make([]float32, sh.rows*sh.cols+8)
			got := make([]float32, len(want))
			for i := range got {
				got[i], want[i] = -7, -7
			}
			for r := 0; r < sh.rows; r++ {
				for c := 0; c < sh.cols; c++ {
					want[c*sh.rows+r] = src[r*sh.ld+c]
				}
			}
			transpose(got[:sh.rows*sh.cols], src, sh.rows, sh.cols, sh.ld)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("element %d: %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}
