//go:build !purego

package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/cpu"
	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// TestPackedAVX512MatchesAVX2: the AVX-512 kernel sums each output in the
// order the AVX2 one does (inputs in turn, one fused multiply-add each,
// then the bias), so the two agree bit for bit, and a tile's results do
// not depend on whether the kernel took it paired with the next (12 rows)
// or alone (6): on direct calls of 1-7 tiles, each also made one tile at a
// time, with and without a bias, with rows 4 KiB apart (k = 1024: the
// 6-row loop throughout) and not, and on whole products.
func TestPackedAVX512MatchesAVX2(t *testing.T) {
	if !cpu.Chosen.AVX512F32 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(15, 16))
	for _, tiles := range []int{1, 2, 3, 4, 5, 7} {
		for _, k := range []int{1, 3, 4, 6, 9, 64, 257, 1024} {
			for _, withBias := range []bool{false, true} {
				r, lda, ldo := f32TileRows*tiles, k+1, 2*f32PanelCols
				if k == 1024 {
					lda = k
				}
				a, w := randF32(rng, r*lda), randF32(rng, k*f32PanelCols)
				var bias []float32
				if withBias {
					bias = randF32(rng, f32PanelCols)
				}
				prior := randF32(rng, r*ldo)
				run := func(kern f32TileKernel, one bool) []float32 {
					out := slices.Clone(prior)
					if !one {
						kern.Tile(a, lda, w, k, out, ldo, bias, tiles)
						return out
					}
					for i := 0; i < tiles; i++ {
						r0 := i * f32TileRows
						kern.Tile(a[r0*lda:], lda, w, k, out[r0*ldo:], ldo, bias, 1)
					}
					return out
				}
				want := run(kernels.F32AVX2, false)
				what := fmt.Sprintf("tiles=%d k=%d lda=%d bias=%v", tiles, k, lda, withBias)
				if got := run(kernels.F32AVX512, false); !slices.Equal(got, want) {
					t.Fatalf("%s: the AVX-512 kernel differs from the AVX2 one", what)
				}
				if got := run(kernels.F32AVX512, true); !slices.Equal(got, want) {
					t.Fatalf("%s: the AVX-512 kernel one tile at a time differs from the AVX2 one", what)
				}
			}
		}
	}
	for _, s := range packedShapes {
		// a's rows lda apart: k (a product), or wider (an input gradient
		// reading a block of dY's columns)
		for _, lda := range []int{s.k, s.k + 5} {
			x, w, b := randF32(rng, s.n*lda), randF32(rng, s.out*s.k), randF32(rng, s.out)
			p := PackF32(w, s.out, s.k)
			prior := randF32(rng, s.n*s.out)
			for _, mode := range []string{"bias", "no bias", "add"} {
				g := NewInference()
				y2, y5 := slices.Clone(prior), slices.Clone(prior)
				bias := b
				if mode != "bias" {
					bias = nil
				}
				g.packedRun(kernels.F32AVX2, x, lda, s.n, p, bias, y2, mode == "add")
				g.packedRun(kernels.F32AVX512, x, lda, s.n, p, bias, y5, mode == "add")
				if !slices.Equal(y2, y5) {
					t.Fatalf("%dx%dx%d lda %d %s: the AVX-512 product differs from the AVX2 one", s.n, s.k, s.out, lda, mode)
				}
			}
		}
	}
}

// The two-panel AVX-512 kernel gives the one-panel kernels' bits, called
// directly on 1-7 tiles (its 12-row loop and its last 6 rows), with and
// without a bias.
func TestPackedWideMatchesAVX2(t *testing.T) {
	if kernels.F32AVX512.Wide == nil || !cpu.Chosen.AVX512F32 {
		t.Skip("no AVX-512 on this CPU")
	}
	rng := rand.New(rand.NewPCG(17, 18))
	for _, tiles := range []int{1, 2, 3, 4, 7} {
		for _, k := range []int{1, 3, 5, 64, 129} {
			for _, withBias := range []bool{false, true} {
				const cols = 2 * f32PanelCols
				r, lda, ldo := f32TileRows*tiles, k+3, cols+8
				a, w := randF32(rng, r*lda), randF32(rng, 2*k*f32PanelCols)
				var bias []float32
				if withBias {
					bias = randF32(rng, cols)
				}
				prior := randF32(rng, r*ldo)
				want, got := slices.Clone(prior), slices.Clone(prior)
				for h := 0; h < 2; h++ {
					var bh []float32
					if withBias {
						bh = bias[h*f32PanelCols:]
					}
					kernels.F32AVX2.Tile(a, lda, w[h*k*f32PanelCols:], k, want[h*f32PanelCols:], ldo, bh, tiles)
				}
				kernels.F32AVX512.Wide(a, lda, w, k, got, ldo, bias, tiles)
				if !slices.Equal(got, want) {
					t.Fatalf("tiles=%d k=%d bias=%v: the two-panel kernel differs from the AVX2 one", tiles, k, withBias)
				}
			}
		}
	}
}

// TestChooseF32KernelAVX2: the AVX-512 kernel is chosen first where the CPU
// has it, and STRATA_SGEMM=avx2 forces the AVX2 one.
func TestChooseF32KernelAVX2(t *testing.T) {
	if !cpu.Chosen.AVX2FMA {
		t.Skip("no AVX2+FMA on this CPU")
	}
	defer func(k f32TileKernel) { f32Kernel = k }(f32Kernel)
	t.Setenv("STRATA_SGEMM", "")
	f32Kernel = kernels.ChooseF32()
	want := kernels.F32AVX2.Name
	if cpu.Chosen.AVX512F32 {
		want = kernels.F32AVX512.Name
	}
	if f32Kernel.Name != want {
		t.Fatalf("default kernel %q, want %q", f32Kernel.Name, want)
	}
	t.Setenv("STRATA_SGEMM", "avx2")
	f32Kernel = kernels.ChooseF32()
	if f32Kernel.Name != kernels.F32AVX2.Name {
		t.Fatalf("STRATA_SGEMM=avx2 chose %q", f32Kernel.Name)
	}
}
