package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdamUpdateMatchesDefinition: AdamUpdate lays out its constants so
// that the kernel computes fairseq's update, element by element, to the
// bit, with and without L2 and weight decay.
func TestAdamUpdateMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, n := range []int{7, 1003} {
		for _, c := range []struct {
			l2 float32
			wd bool
		}{{0, false}, {1e-5, false}, {0, true}, {3e-4, true}} {
			u := AdamStep{B1: 0.9, B2: 0.98, StepSize: 7e-4, Eps: 1e-8, Decay: 1 - 1e-5, WD: c.wd}
			w, g := randF32(rng, n), randF32(rng, n)
			m, v := randF32(rng, n), randF32(rng, n)
			for i := range v {
				v[i] *= v[i]
			}
			w2, m2, v2 := append([]float32(nil), w...), append([]float32(nil), m...), append([]float32(nil), v...)
			AdamUpdate(u, w, g, m, v, c.l2)
			adamDefinition(u, w2, g, m2, v2, c.l2)
			for i := range w {
				if math.Float32bits(w[i]) != math.Float32bits(w2[i]) || m[i] != m2[i] || v[i] != v2[i] {
					t.Fatalf("%s: element %d: w m v = %v %v %v, definition %v %v %v",
						fmt.Sprintf("n=%d l2=%g wd=%v", n, c.l2, c.wd), i, w[i], m[i], v[i], w2[i], m2[i], v2[i])
				}
			}
		}
	}
}

// adamDefinition is the update as fairseq writes it.
func adamDefinition(u AdamStep, w, grad, m, v []float32, l2 float32) {
	b1, b2 := u.B1, u.B2
	for j, g := range grad {
		x := w[j]
		g += float32(l2 * x) // float32(): rounded before the sum, as the kernels do, also where the compiler may fuse (GOAMD64=v3)
		m[j] = float32(b1*m[j]) + float32((1-b1)*g)
		v[j] = float32(b2*v[j]) + float32((1-b2)*g*g)
		if u.WD {
			x *= u.Decay
		}
		w[j] = x - u.StepSize*m[j]/(float32(math.Sqrt(float64(v[j])))+u.Eps)
	}
}
