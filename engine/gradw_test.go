package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestGradWKernels: on the weight-gradient kernel of every packed kernel
// that has one (the pure-Go one on every CPU, the AVX-512 one), g.gradW adds dyᵀ·x to what dw holds, within float32
// rounding of the float64 product, on shapes whose rows are not multiples
// of 12 (4- and 8-row tails) or of 4 (OpenBLAS rows), whose columns are not
// multiples of 32 (OpenBLAS columns), with n from 1; the floats past dw are
// left alone, and the result is the same bits on one and three threads.
func TestGradWKernels(t *testing.T) {
	defer func(k f32TileKernel) { f32Kernel = k }(f32Kernel)
	tested := 0
	for _, kern := range f32Kernels {
		if kern.GradW == nil {
			continue
		}
		tested++
		f32Kernel = kern
		for si, s := range []struct{ n, out, in int }{
			{1, 12, 32}, {3, 4, 32}, {17, 24, 64}, {40, 8, 96}, {9, 20, 32},
			{33, 130, 70}, {5, 3, 40}, {64, 128, 128}, {7, 16, 31}, {300, 44, 160},
		} {
			t.Run(fmt.Sprintf("%s/n%d_out%d_in%d", kern.Name, s.n, s.out, s.in), func(t *testing.T) {
				checkGradW(t, uint64(si), s.n, s.out, s.in)
			})
		}
	}
	if tested == 0 {
		t.Fatal("no packed kernel has a weight-gradient kernel (the pure-Go one should)")
	}
}

func checkGradW(t *testing.T, seed uint64, n, out, in int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	dy, x, dw0 := randF32(rng, n*out), randF32(rng, n*in), randF32(rng, out*in)
	const guard = 37
	run := func(threads int) []float32 {
		dw := append(slices.Clone(dw0), make([]float32, guard)...)
		for i := out * in; i < len(dw); i++ {
			dw[i] = 12345
		}
		g := NewGraph(1)
		g.SetThreads(threads)
		g.gradW(dy, n, out, x, in, dw[:out*in])
		for i := out * in; i < len(dw); i++ {
			if dw[i] != 12345 {
				t.Fatalf("dw[%d] past the end written: %v", i, dw[i])
			}
		}
		return dw[:out*in]
	}
	one, three := run(1), run(3)
	if !slices.Equal(one, three) {
		t.Fatal("one and three threads differ")
	}
	for o := 0; o < out; o++ {
		for i := 0; i < in; i++ {
			want, mag := float64(dw0[o*in+i]), math.Abs(float64(dw0[o*in+i]))
			for r := 0; r < n; r++ {
				p := float64(dy[r*out+o]) * float64(x[r*in+i])
				want += p
				mag += math.Abs(p)
			}
			if got := float64(one[o*in+i]); math.Abs(got-want) > 1e-6*mag+1e-7 {
				t.Fatalf("dw[%d,%d] = %v, want %v", o, i, got, want)
			}
		}
	}
}
