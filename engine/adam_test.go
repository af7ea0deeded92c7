package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdamUpdateMatchesScalar: AdamUpdate (the AVX2 loop where the CPU has
// it, the scalar tail) gives adamScalar's bits for every element, with and
// without L2 and weight decay, on lengths that are and are not multiples
// of 8, moments that start at zero as well as warm ones.
func TestAdamUpdateMatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{1, 7, 8, 9, 64, 1003} {
		for _, c := range []struct {
			l2 float32
			wd bool
		}{{0, false}, {1e-5, false}, {0, true}, {3e-4, true}} {
			u := AdamStep{B1: 0.9, B2: 0.98, StepSize: 7e-4, Eps: 1e-8, Decay: 1 - 1e-5, WD: c.wd}
			w, g := randF32(rng, n), randF32(rng, n)
			m, v := randF32(rng, n), randF32(rng, n)
			for i := range v {
				v[i] *= v[i] // second moments are non-negative
				if i%5 == 0 {
					m[i], v[i] = 0, 0 // the first step's
				}
				if i%7 == 0 {
					g[i] *= 1e-20 // tiny gradients: denormal squares
				}
			}
			w2, m2, v2 := append([]float32(nil), w...), append([]float32(nil), m...), append([]float32(nil), v...)
			for step := 0; step < 3; step++ {
				AdamUpdate(u, w, g, m, v, c.l2)
				adamScalar(u, w2, g, m2, v2, c.l2)
			}
			what := fmt.Sprintf("n=%d l2=%g wd=%v", n, c.l2, c.wd)
			for _, p := range []struct {
				name     string
				got, ref []float32
			}{{"w", w, w2}, {"m", m, m2}, {"v", v, v2}} {
				for i := range p.got {
					if math.Float32bits(p.got[i]) != math.Float32bits(p.ref[i]) {
						t.Fatalf("%s: %s[%d] = %v, scalar %v", what, p.name, i, p.got[i], p.ref[i])
					}
				}
			}
		}
	}
}
