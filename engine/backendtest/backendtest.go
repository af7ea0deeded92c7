// Package backendtest is the conformance suite every engine backend must
// pass: each op, forward and backward, on random inputs, compared with the
// reference backend (float64 arithmetic, plain loops), whose own gradients
// the engine's finite-difference checks establish. A backend package (a
// CUDA backend loaded at run time) calls Run from its tests once it has
// registered itself.
package backendtest

import (
	"fmt"
	"math"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// Tol is an op's tolerance: an element passes when
// |got - want| ≤ Abs·max|want| + Rel·|want|, with want the reference's
// value and max|want| over the whole output (so sums that cancel to near
// zero are judged at the scale of their terms).
type Tol struct{ Abs, Rel float64 }

// Tolerances, each justified by the float32 arithmetic a backend may use
// against the reference's float64 (u = 2⁻²⁴ ≈ 6e-8, float32's unit
// roundoff).
var (
	// one or two float32 roundings per element (add, multiply, scale,
	// gather, dropout's scale): a few u
	TolElem = Tol{Abs: 4e-7, Rel: 4e-7}
	// libm-quality functions evaluated in float64 and rounded, or
	// float32 polynomials of about 2 ulp (the CPU's exponential): 1e-6
	TolFunc = Tol{Abs: 1e-6, Rel: 2e-6}
	// k-term float32 dot products: error ≤ k·u·Σ|a·b| in the worst case,
	// about √k·u typically; the suite's k ≤ 200 gives ≤ 1.2e-5·Σ|a·b|,
	// and Σ|a·b| is within a small factor of max|want| for random inputs
	TolProduct = Tol{Abs: 2e-5, Rel: 2e-5}
	// row reductions (softmax, layer norm, cross-entropy) that combine a
	// float32 exponential or normalisation with a row sum of up to a few
	// hundred terms: the product bound's order
	TolRow = Tol{Abs: 2e-5, Rel: 2e-5}
)

// Case is one op on one set of inputs.
type Case struct {
	Name string
	Tol  Tol
	// Inputs are made by the case (fresh, seeded, with gradients).
	Inputs func() []*engine.Tensor
	// Build computes the op's output from the inputs on g.
	Build func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor
}

// Run runs every case (Cases, DecodeCases) on the named backend and
// compares it with the reference backend, with threads kernel threads.
func Run(t *testing.T, backend string, threads int) {
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) { check(t, backend, threads, c) })
	}
	for _, c := range DecodeCases() {
		t.Run(c.Name, func(t *testing.T) { checkDecode(t, backend, threads, c) })
	}
	t.Run("Adam", func(t *testing.T) { checkAdam(t, backend) })
	t.Run("OutputLinear/shortlist", func(t *testing.T) { checkOutputRows(t, backend, threads) })
}

// result is one backend's output and the gradients of every input.
type result struct {
	out   []float32
	grads [][]float32
}

func eval(t *testing.T, backend string, threads int, c Case) result {
	t.Helper()
	in := c.Inputs()
	g := engine.NewGraph(7)
	g.SetThreads(threads)
	if err := g.SetBackend(backend); err != nil {
		t.Fatal(err)
	}
	y := c.Build(g, in)
	r := engine.NewRNG(99)
	dir := make([]float32, y.Size())
	for i := range dir {
		dir[i] = float32(r.Float64()*2 - 1)
	}
	res := result{out: append([]float32(nil), y.Data...)}
	g.BackwardWith(y, dir)
	for _, x := range in {
		res.grads = append(res.grads, append([]float32(nil), x.Grad...))
	}
	return res
}

func check(t *testing.T, backend string, threads int, c Case) {
	want := eval(t, engine.BackendReference, 1, c)
	got := eval(t, backend, threads, c)
	compare(t, "forward", got.out, want.out, c.Tol)
	for i := range want.grads {
		// a gradient is one more product or row reduction than its
		// output: twice the tolerance
		compare(t, fmt.Sprintf("gradient of input %d", i), got.grads[i], want.grads[i], Tol{2 * c.Tol.Abs, 2 * c.Tol.Rel})
	}
}

// compare fails on the first element outside tol, naming it.
func compare(t *testing.T, what string, got, want []float32, tol Tol) {
	t.Helper()
	if msg, worst := mismatch(got, want, tol); msg != "" {
		t.Fatalf("%s: %s", what, msg)
	} else if testing.Verbose() {
		t.Logf("%s: worst element at %.2g of its tolerance", what, worst)
	}
}

// mismatch describes the first element of got outside tol of want ("" when
// none is) and gives the largest ratio of an error to its limit.
func mismatch(got, want []float32, tol Tol) (string, float64) {
	if len(got) != len(want) {
		return fmt.Sprintf("%d values, reference has %d", len(got), len(want)), 0
	}
	var scale float64
	for _, w := range want {
		scale = math.Max(scale, math.Abs(float64(w)))
	}
	worst := 0.0
	for i := range want {
		d := math.Abs(float64(got[i]) - float64(want[i]))
		lim := tol.Abs*scale + tol.Rel*math.Abs(float64(want[i]))
		if !(d <= lim) { // NaN fails too
			return fmt.Sprintf("element %d is %g, reference %g (|diff| %.3g > %.3g)", i, got[i], want[i], d, lim), 0
		}
		worst = math.Max(worst, d/math.Max(lim, 1e-30))
	}
	return "", worst
}

// checkAdam runs one optimizer step on the backend and on the reference.
func checkAdam(t *testing.T, backend string) {
	const n = 1000
	step := engine.AdamStep{B1: 0.9, B2: 0.98, StepSize: 1e-3, Eps: 1e-8, Decay: 0.999, WD: true}
	run := func(name string) [3][]float32 {
		r := engine.NewRNG(5)
		var s [4][]float32
		for i := range s {
			s[i] = make([]float32, n)
			for j := range s[i] {
				s[i][j] = float32(r.Float64()*2 - 1)
			}
		}
		for j := range s[3] { // v ≥ 0
			s[3][j] *= s[3][j]
		}
		g := engine.NewGraph(1)
		if err := g.SetBackend(name); err != nil {
			t.Fatal(err)
		}
		g.Backend().Adam(step, s[0], s[1], s[2], s[3], 0.01)
		return [3][]float32{s[0], s[2], s[3]}
	}
	want, got := run(engine.BackendReference), run(backend)
	for i, what := range []string{"weights", "first moments", "second moments"} {
		compare(t, "Adam "+what, got[i], want[i], TolFunc)
	}
}
