package engine

import (
	"math"
	"testing"
)

// The gradient checks use tensors too small to be split over goroutines.
// This test runs a stack of ops on tensors large enough to be split (and
// with sizes that are not multiples of the dropout mask's 32-element words)
// with 1, 2 and 3 threads: every output and gradient must be bit-identical
// between two runs with the same thread count, and agree to rounding across
// thread counts (split reductions add per-chunk partial sums, and the BLAS
// kernel may round a row block's edge differently).
func TestKernelsAcrossThreadCounts(t *testing.T) {
	const n, d, v = 601, 70, 97
	r := NewRNG(11)
	x, w, b := param(r, "x", n, d), param(r, "w", d, d), param(r, "b", d)
	gain, bias, out := param(r, "gain", d), param(r, "bias", d), param(r, "out", v, d)
	targets := make([]int32, n)
	for i := range targets {
		targets[i] = int32(i*7) % v // includes pad (0) rows
	}
	params := []*Tensor{x, w, b, gain, bias, out}
	run := func(threads int) (loss float32, grads [][]float32, hidden []float32) {
		for _, p := range params {
			p.ZeroGrad()
		}
		g := NewGraph(5)
		g.SetThreads(threads)
		h := g.Dropout(g.ReLU(g.Linear(x, w, b)), 0.2)
		h = g.LayerNorm(g.Add(x, g.Mul(h, g.Scale(x, 0.5))), gain, bias)
		h = g.Sub(h, g.OneMinus(g.Sigmoid(h)))
		res := g.LabelSmoothedCE(g.Linear(h, out, nil), targets, 0.1, 0)
		g.Backward(res.Loss)
		for _, p := range params {
			grads = append(grads, append([]float32(nil), p.Grad...))
		}
		return res.Loss.Item(), grads, append([]float32(nil), h.Data...)
	}
	l1, g1, h1 := run(1)
	for _, threads := range []int{2, 3} {
		la, ga, ha := run(threads)
		lb, gb, hb := run(threads)
		if la != lb || !identical(ha, hb) {
			t.Fatalf("%d threads: forward differs between runs", threads)
		}
		for i := range ga {
			if !identical(ga[i], gb[i]) {
				t.Fatalf("%d threads: gradient of %s differs between runs", threads, params[i].Name)
			}
		}
		for i := range ha {
			if math.Abs(float64(ha[i]-h1[i])) > 1e-5 {
				t.Fatalf("%d threads: forward[%d] = %v, 1 thread %v", threads, i, ha[i], h1[i])
			}
		}
		if math.Abs(float64(la-l1)) > 1e-5*math.Abs(float64(l1)) {
			t.Fatalf("%d threads: loss %v, 1 thread %v", threads, la, l1)
		}
		for i := range ga {
			for j := range ga[i] {
				if math.Abs(float64(ga[i][j]-g1[i][j])) > 1e-5+1e-4*math.Abs(float64(g1[i][j])) {
					t.Fatalf("%d threads: %s grad[%d] = %v, 1 thread %v", threads, params[i].Name, j, ga[i][j], g1[i][j])
				}
			}
		}
	}
}

func identical(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

// Dropout's stored bit mask must reproduce the hashed mask exactly, forward
// and backward, including the last partial word.
func TestDropoutBitmaskMatchesHash(t *testing.T) {
	const n = 40000 + 13
	r := NewRNG(2)
	x := param(r, "x", n)
	g := NewGraph(9)
	g.SetThreads(2)
	y := g.Dropout(x, 0.25)
	key := splitmix(9 ^ splitmix(1)) // the graph's first dropout op
	thr := uint32(0.25 * (1 << 32))
	dy := make([]float32, n)
	for i := range dy {
		dy[i] = float32(i%7) - 3
	}
	g.BackwardWith(y, dy)
	for i := 0; i < n; i++ {
		want, wantGrad := float32(0), float32(0)
		if keep(key, i, thr) {
			want, wantGrad = x.Data[i]/0.75, dy[i]/0.75
		}
		if math.Abs(float64(y.Data[i]-want)) > 1e-6 || math.Abs(float64(x.Grad[i]-wantGrad)) > 1e-5 {
			t.Fatalf("element %d: y %v want %v, grad %v want %v", i, y.Data[i], want, x.Grad[i], wantGrad)
		}
	}
}

// TestThreadShare: the shares add up to the threads (or one each when
// there are more workers than threads) and differ by at most one.
func TestThreadShare(t *testing.T) {
	for threads := 1; threads <= 9; threads++ {
		for n := 1; n <= 5; n++ {
			sum, lo, hi := 0, threads, 0
			for k := 0; k < n; k++ {
				s := ThreadShare(threads, n, k)
				sum, lo, hi = sum+s, min(lo, s), max(hi, s)
			}
			if want := max(threads, n); sum != want || hi-lo > 1 || lo < 1 {
				t.Fatalf("threads %d over %d workers: shares sum to %d (want %d), range %d-%d", threads, n, sum, want, lo, hi)
			}
		}
	}
}
