package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// gradWKernels are the weight-gradient kernels this CPU can run.
func gradWKernels() []GradWKernel {
	ks := []GradWKernel{GradWGo}
	if cpu.Detected.AVX512F32 {
		ks = append(ks, gradWAVX512())
	}
	return ks
}

// TestGradWTiles: each kernel's 12- and 4-row tiles add dyᵀ·x to what c
// holds, within float32 rounding of the float64 sums (the assembly fuses
// each multiply-add, the reference does not), touching nothing past the
// tile's rows and columns.
func TestGradWTiles(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	for _, k := range gradWKernels() {
		for _, rows := range []int{GradWRows, GradWRowsTail} {
			for _, sh := range []struct{ n, panels int }{{1, 1}, {5, 2}, {37, 3}} {
				t.Run(fmt.Sprintf("%s/rows%d/n%d_p%d", k.Name, rows, sh.n, sh.panels), func(t *testing.T) {
					checkGradWTile(t, r, k, rows, sh.n, sh.panels)
				})
			}
		}
	}
}

func checkGradWTile(t *testing.T, r *rand.Rand, k GradWKernel, rows, n, panels int) {
	cols := panels * GradWCols
	ldy, ldx, ldc := rows+3, cols+5, cols+7
	dy, x, c := randF32(r, n*ldy), randF32(r, n*ldx), randF32(r, rows*ldc)
	before := append([]float32(nil), c...)
	tile := k.Rows12
	if rows == GradWRowsTail {
		tile = k.Rows4
	}
	tile(dy, ldy, x, ldx, n, c, ldc, panels)
	for i := 0; i < rows; i++ {
		for j := 0; j < ldc; j++ {
			if j >= cols {
				if c[i*ldc+j] != before[i*ldc+j] {
					t.Fatalf("c[%d,%d] past the tile written", i, j)
				}
				continue
			}
			want, mag := float64(before[i*ldc+j]), math.Abs(float64(before[i*ldc+j]))
			for p := 0; p < n; p++ {
				v := float64(dy[p*ldy+i]) * float64(x[p*ldx+j])
				want += v
				mag += math.Abs(v)
			}
			if got := float64(c[i*ldc+j]); math.Abs(got-want) > 1e-6*mag+1e-7 {
				t.Fatalf("c[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}
