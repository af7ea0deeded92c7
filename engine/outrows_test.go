package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestOutputLinearRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x, w := NewTensor(7, 12), NewTensor(30, 12)
	Normal(x, 1, rng)
	Normal(w, 1, rng)
	for _, int8 := range []bool{false, true} {
		g := NewInference()
		g.SetCompute(computeOf(int8))
		full := g.OutputLinear(x, w)
		all := make([]int32, 30)
		for i := range all {
			all[i] = int32(i)
		}
		g.SetOutputRows(NewRowSubset(all))
		same := g.OutputLinear(x, w)
		g.SetOutputRows(NewRowSubset([]int32{3, 17, 0}))
		some := g.OutputLinear(x, w)
		for r := 0; r < 7; r++ {
			for c := 0; c < 30; c++ {
				f, a, s := full.Data[r*30+c], same.Data[r*30+c], some.Data[r*30+c]
				if f != a {
					t.Fatalf("int8 %v: the whole vocabulary as subset gives %v at (%d,%d), full %v", int8, a, r, c, f)
				}
				if c == 3 || c == 17 || c == 0 {
					// the float BLAS may block a narrower product differently
					if d := math.Abs(float64(s - f)); (int8 && d != 0) || d > 1e-5*(1+math.Abs(float64(f))) {
						t.Fatalf("int8 %v: subset gives %v at (%d,%d), full %v", int8, s, r, c, f)
					}
				} else if !math.IsInf(float64(s), -1) {
					t.Fatalf("int8 %v: column %d outside the subset is %v, want -Inf", int8, c, s)
				}
			}
		}
	}
}
