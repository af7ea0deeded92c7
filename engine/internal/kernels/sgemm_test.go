package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestF32Tiles: every packed kernel this CPU can run (the reference
// TileF32Go among them) computes its tiles, one panel (Tile) or two
// (Wide), with and without a bias, within float32 rounding of the float64
// sums, and writes nothing past its rows and columns.
func TestF32Tiles(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, kern := range detectedF32Kernels() {
		for _, panels := range []int{1, 2} {
			tile := kern.Tile
			if panels == 2 {
				if tile = kern.Wide; tile == nil {
					continue
				}
			}
			for _, sh := range []struct{ tiles, k int }{{1, 1}, {2, 7}, {3, 64}, {5, 129}} {
				for _, bias := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/p%d/t%d_k%d_bias%v", kern.Name, panels, sh.tiles, sh.k, bias), func(t *testing.T) {
						checkF32Tile(t, r, tile, panels, sh.tiles, sh.k, bias)
					})
				}
			}
		}
	}
}

func checkF32Tile(t *testing.T, r *rand.Rand, tile func([]float32, int, []float32, int, []float32, int, []float32, int), panels, tiles, k int, withBias bool) {
	rows, cols := F32TileRows*tiles, panels*F32PanelCols
	lda, ldo := k+3, cols+5
	a, w, out := randF32(r, rows*lda), randF32(r, k*cols), randF32(r, rows*ldo)
	before := append([]float32(nil), out...)
	var bias []float32
	if withBias {
		bias = randF32(r, cols)
	}
	tile(a, lda, w, k, out, ldo, bias, tiles)
	for i := 0; i < rows; i++ {
		for j := 0; j < ldo; j++ {
			if j >= cols {
				if out[i*ldo+j] != before[i*ldo+j] {
					t.Fatalf("out[%d,%d] past the tile written", i, j)
				}
				continue
			}
			p, c := j/F32PanelCols, j%F32PanelCols
			want, mag := float64(before[i*ldo+j]), math.Abs(float64(before[i*ldo+j]))
			if withBias {
				want, mag = float64(bias[j]), math.Abs(float64(bias[j]))
			}
			for q := 0; q < k; q++ {
				v := float64(a[i*lda+q]) * float64(w[p*k*F32PanelCols+q*F32PanelCols+c])
				want += v
				mag += math.Abs(v)
			}
			if got := float64(out[i*ldo+j]); math.Abs(got-want) > 1e-6*mag+1e-7 {
				t.Fatalf("out[%d,%d] = %v, want %v", i, j, got, want)
			}
		}
	}
}
