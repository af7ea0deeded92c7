package engine

import (
	"math"
	"testing"
)

// expSums (vectorised on amd64, on the instruction set chosen) has expNegPoly's accuracy on the whole
// range, its edges (0, below 2^-126, -Inf, NaN), every tail length, and
// sums that match float64 arithmetic.
func TestExpSums(t *testing.T) {
	var z []float32
	for x := float32(-87.33); x <= 0; x += 0.00317 {
		z = append(z, x+3) // shifted by mx = 3 below
	}
	for _, n := range []int{len(z), len(z) - 1, len(z) - 7, 9, 8, 7, 1} {
		zs := z[:n]
		dr := make([]float32, n)
		sum, sumZ := expSums(zs, 3, dr)
		var wantSum, wantZ float64
		for j, x := range zs {
			want := math.Exp(float64(x) - 3)
			if rel := math.Abs(float64(dr[j])-want) / want; rel > 2.5e-7 {
				t.Fatalf("n=%d: e^%v = %v, want %v (rel %.3g)", n, x-3, dr[j], want, rel)
			}
			wantSum += float64(dr[j])
			wantZ += float64(x)
		}
		if !near(sum, wantSum, 1e-12*math.Abs(wantSum)) || !near(sumZ, wantZ, 1e-12*math.Abs(wantZ)+1e-9) {
			t.Fatalf("n=%d: sums %v %v, want %v %v", n, sum, sumZ, wantSum, wantZ)
		}
		if s2, _ := expSums(zs, 3, nil); s2 != sum {
			t.Fatalf("n=%d: sum without storing %v, with %v", n, s2, sum)
		}
	}
	inf := float32(math.Inf(-1))
	edges := []float32{0, -100, inf, -87.4, -87.3, 0, 0, 0, -1, 0}
	dr := make([]float32, len(edges))
	expSums(edges, 0, dr)
	for j, want := range []float32{1, 0, 0, 0, expNegPoly(-87.3), 1, 1, 1, expNegPoly(-1), 1} {
		if j == 4 || j == 8 {
			if rel := math.Abs(float64(dr[j]-want)) / float64(want); rel > 2.5e-7 {
				t.Fatalf("e^%v = %v, want %v", edges[j], dr[j], want)
			}
			continue
		}
		if dr[j] != want {
			t.Fatalf("e^%v = %v, want %v", edges[j], dr[j], want)
		}
	}
	nan := make([]float32, 16)
	nan[3] = float32(math.NaN())
	if s, _ := expSums(nan, 0, nil); !math.IsNaN(s) {
		t.Fatalf("a NaN logit gives sum %v; it must stay NaN so that divergence is seen", s)
	}
}
