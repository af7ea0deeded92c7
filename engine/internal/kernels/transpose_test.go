package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestTransposeStripMatchesReference: the AVX blocks write what
// TransposeStripGo writes, and nothing outside the strip.
func TestTransposeStripMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, blocks := range []int{1, 2, 5} {
		lds, ldd := 8*blocks+3, 11
		src := randF32(r, 8*lds)
		got, want := randF32(r, 8*blocks*ldd), make([]float32, 8*blocks*ldd)
		copy(want, got)
		TransposeStripGo(want, ldd, src, lds, blocks)
		if !withAVX2(t, func() { TransposeStripAVX(&got[0], ldd, &src[0], lds, blocks) }) {
			return
		}
		sameBits(t, fmt.Sprintf("blocks=%d", blocks), got, want)
	}
}
