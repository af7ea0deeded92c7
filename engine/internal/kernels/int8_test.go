package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// A kernel above the chosen instruction set stays in the list (the tests
// compare it) but is never chosen, even when STRATA_INT8 names it.
func TestChooseInt8KernelKeepsToTheISA(t *testing.T) {
	defer func(v, a bool) { vnni, avx2 = v, a }(vnni, avx2)
	vnni, avx2 = false, false
	for _, env := range []string{"", "avx512-vnni", "avx2"} {
		if k := ChooseInt8(env); k.Name != Int8Go.Name {
			t.Errorf("under STRATA_ISA=go, STRATA_INT8=%q chose %s", env, k.Name)
		}
	}
}

// TestInt8TilesMatchReference: every int8 kernel this CPU can run gives
// TileInt8Go's floats bit for bit (the same integers, then the same
// float operations), the AVX2 pairs form included on 7-bit activations.
func TestInt8TilesMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 1))
	for _, kern := range Int8Kernels {
		forms := []Int8TileKernel{kern}
		if kern.Pairs != nil {
			forms = append(forms, *kern.Pairs)
		}
		for fi, form := range forms {
			for _, sh := range []struct{ tiles, k4 int }{{1, 2}, {3, 8}, {5, 34}} {
				t.Run(fmt.Sprintf("%s/t%d_k%d", form.Name, sh.tiles, sh.k4), func(t *testing.T) {
					maxAct := 255
					if fi == 1 { // the pairs form takes activations in [1, 127]
						maxAct = 126
					}
					rows, cols := Int8TileRows*sh.tiles, Int8PanelCols
					lda, ldo := 4*sh.k4+4, cols+3
					a := make([]uint8, rows*lda)
					for i := range a {
						a[i] = uint8(1 + r.IntN(maxAct))
					}
					w := make([]int8, sh.k4*cols*4)
					for i := range w {
						w[i] = int8(r.IntN(129) - 64)
					}
					comp, scale, sa, bias := make([]int32, cols), randF32(r, cols), randF32(r, rows), randF32(r, cols)
					for i := range comp {
						comp[i] = int32(r.IntN(2000) - 1000)
					}
					got, want := make([]float32, rows*ldo), make([]float32, rows*ldo)
					form.Tile(a, lda, w, sh.k4, got, ldo, comp, scale, sa, bias, sh.tiles)
					TileInt8Go(a, lda, w, sh.k4, want, ldo, comp, scale, sa, bias, sh.tiles)
					sameBits(t, form.Name, got, want)
				})
			}
		}
	}
}
