package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestAdamMatchesReference: the AVX2 loop (with AdamGo's tail) gives
// AdamGo's bits for every element, with and without L2 and weight decay, on
// lengths that are and are not multiples of 8, moments that start at zero
// as well as warm ones.
func TestAdamMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{1, 7, 8, 9, 64, 1003} {
		for _, c := range []struct{ l2, decay float32 }{{0, 1}, {1e-5, 1}, {0, 1 - 1e-5}, {3e-4, 1 - 1e-5}} {
			k := AdamConsts{0.9, 1 - 0.9, 0.98, 1 - 0.98, 7e-4, c.decay, 1e-8, c.l2}
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
			if !withAVX2(t, func() {
				for step := 0; step < 3; step++ {
					Adam(w, g, m, v, &k)
					AdamGo(w2, g, m2, v2, &k)
				}
			}) {
				return
			}
			what := fmt.Sprintf("n=%d l2=%g decay=%g", n, c.l2, c.decay)
			sameBits(t, what+" w", w, w2)
			sameBits(t, what+" m", m, m2)
			sameBits(t, what+" v", v, v2)
		}
	}
}
