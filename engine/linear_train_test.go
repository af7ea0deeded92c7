package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// trainLinearCase is a recording graph's Linear and LinearReLU on one input
// with their gradients, for comparing kernels.
type trainLinearCase struct {
	n, in, out                     int
	x, w1, b1, w2, b2, r1, r2      []float32
	y1, y2, dx, dw1, db1, dw2, db2 []float32
}

func newTrainLinearCase(seed uint64, n, in, out int) *trainLinearCase {
	rng := rand.New(rand.NewPCG(seed, 99))
	return &trainLinearCase{n: n, in: in, out: out,
		x: randF32(rng, n*in), w1: randF32(rng, out*in), b1: randF32(rng, out),
		w2: randF32(rng, out*in), b2: randF32(rng, out), r1: randF32(rng, n*out), r2: randF32(rng, n*out)}
}

// run computes loss = Σ r1⊙Linear(x) + Σ r2⊙LinearReLU(x) on a recording
// graph of threads threads and keeps the outputs and gradients. x feeds
// both products, so its gradient is accumulated by the second.
func (c *trainLinearCase) run(threads int) {
	leaf := func(v []float32, shape ...int) *Tensor {
		t := FromData(slices.Clone(v), shape...)
		t.SetRequiresGrad(true)
		return t
	}
	x, w1, b1 := leaf(c.x, c.n, c.in), leaf(c.w1, c.out, c.in), leaf(c.b1, c.out)
	w2, b2 := leaf(c.w2, c.out, c.in), leaf(c.b2, c.out)
	g := NewGraph(1)
	g.SetThreads(threads)
	y1, y2 := g.Linear(x, w1, b1), g.LinearReLU(x, w2, b2)
	r1, r2 := FromData(c.r1, c.n, c.out), FromData(c.r2, c.n, c.out)
	g.Backward(g.Add(g.Sum(g.Mul(y1, r1)), g.Sum(g.Mul(y2, r2))))
	c.y1, c.y2 = slices.Clone(y1.Data), slices.Clone(y2.Data)
	c.dx, c.dw1, c.db1, c.dw2, c.db2 = x.Grad, w1.Grad, b1.Grad, w2.Grad, b2.Grad
}

// reference is the float64 result of the same computation, with the ReLU
// mask taken from the float32 output (a pre-activation within rounding of
// zero would otherwise flip it).
func (c *trainLinearCase) reference() (y1, y2, dx, dw1, db1, dw2, db2 []float64) {
	n, in, out := c.n, c.in, c.out
	y1 = refLinear64(c.x, c.w1, c.b1, n, in, out)
	y2 = refLinear64(c.x, c.w2, c.b2, n, in, out)
	g2 := make([]float64, n*out) // r2 masked by the ReLU
	for i := range y2 {
		y2[i] = max(y2[i], 0)
		if c.y2[i] > 0 {
			g2[i] = float64(c.r2[i])
		}
	}
	dx, dw1, dw2 = make([]float64, n*in), make([]float64, out*in), make([]float64, out*in)
	db1, db2 = make([]float64, out), make([]float64, out)
	for r := 0; r < n; r++ {
		for o := 0; o < out; o++ {
			a, b := float64(c.r1[r*out+o]), g2[r*out+o]
			db1[o] += a
			db2[o] += b
			for i := 0; i < in; i++ {
				dx[r*in+i] += a*float64(c.w1[o*in+i]) + b*float64(c.w2[o*in+i])
				dw1[o*in+i] += a * float64(c.x[r*in+i])
				dw2[o*in+i] += b * float64(c.x[r*in+i])
			}
		}
	}
	return
}

// TestTrainingLinearKernels: on every kernel this CPU has (OpenBLAS, the
// packed assembly and the pure-Go packed kernel), a recording graph's Linear
// and LinearReLU and their gradients follow the float64 reference, on
// shapes whose rows, inputs and outputs are not multiples of the 6×16 tile,
// that span several row blocks, and whose inputs or outputs exceed
// packedMaxK (that product then on OpenBLAS); and on a packed
// kernel every result is the same bit for bit on one and three threads.
func TestTrainingLinearKernels(t *testing.T) {
	defer func(k f32TileKernel) { f32Kernel = k }(f32Kernel)
	shapes := []struct{ n, in, out int }{{23, 70, 130}, {200, 40, 33}, {7, 1024, 20}, {13, 16, 1100}, {8, 1100, 24}, {1, 5, 3}}
	for _, kern := range append([]f32TileKernel{kernels.F32BLAS}, f32Kernels...) {
		f32Kernel = kern
		for si, s := range shapes {
			c := newTrainLinearCase(uint64(si), s.n, s.in, s.out)
			c.run(1)
			y1, y2, dx, dw1, db1, dw2, db2 := c.reference()
			what := kern.Name + " " + string(rune('A'+si))
			checkClose(t, what+" y1", c.y1, y1, s.in)
			checkClose(t, what+" y2", c.y2, y2, s.in)
			checkClose(t, what+" dx", c.dx, dx, 2*s.out)
			checkClose(t, what+" dW1", c.dw1, dw1, s.n)
			checkClose(t, what+" db1", c.db1, db1, s.n)
			checkClose(t, what+" dW2", c.dw2, dw2, s.n)
			checkClose(t, what+" db2", c.db2, db2, s.n)
			if kern.Tile == nil {
				continue // OpenBLAS's sums may depend on the split
			}
			three := newTrainLinearCase(uint64(si), s.n, s.in, s.out)
			three.run(3)
			for _, p := range [][2][]float32{{c.y1, three.y1}, {c.y2, three.y2}, {c.dx, three.dx}} {
				if !slices.Equal(p[0], p[1]) {
					t.Fatalf("%s: results differ between one and three threads", what)
				}
			}
		}
	}
}
