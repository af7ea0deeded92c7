package engine

import (
	"sync"
	"sync/atomic"
)

// Matrix-product traces, for measuring the floor under a workload: the
// time its products alone take on this machine's BLAS. A benchmark traces
// one training step (or one decoding run), replays exactly those products
// on scratch buffers, and so learns how fast any implementation using the
// same BLAS could go. docs/performance.md compares strata and PyTorch with
// that ceiling.

// GemmCall is one recorded product: C = op(A)·op(B) with C m×n, inner
// dimension k, and the leading dimensions used. Split is true for products
// the engine splits over its threads (Graph.gemm), false for the small
// ones its kernels run inside a parallel job (per-head attention).
type GemmCall struct {
	TA, TB        bool
	M, N, K       int
	LDA, LDB, LDC int
	Split         bool
}

// Flops is the call's floating-point operations, 2·m·n·k.
func (c GemmCall) Flops() float64 { return 2 * float64(c.M) * float64(c.N) * float64(c.K) }

// TotalFlops is the floating-point operations of all calls.
func TotalFlops(calls []GemmCall) float64 {
	var f float64
	for _, c := range calls {
		f += c.Flops()
	}
	return f
}

type gemmTracer struct {
	mu    sync.Mutex
	calls []GemmCall
}

var tracer atomic.Pointer[gemmTracer]

// TraceGemms records every product from now until the returned function is
// called; it returns the calls in the order they were made (products made
// concurrently by parallel jobs in any order). One trace at a time.
func TraceGemms() (stop func() []GemmCall) {
	t := &gemmTracer{}
	tracer.Store(t)
	return func() []GemmCall {
		tracer.CompareAndSwap(t, nil)
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.calls
	}
}

func traceGemm(c GemmCall) {
	if t := tracer.Load(); t != nil {
		t.mu.Lock()
		t.calls = append(t.calls, c)
		t.mu.Unlock()
	}
}

// ReplayGemms runs the products of calls again, on scratch operands, the
// way the engine ran them: split products one after another, each split
// over g's threads; runs of consecutive small products as parallel jobs.
// The operands rotate through four scratch sets so that consecutive
// products do not find each other's data in cache.
func (g *Graph) ReplayGemms(calls []GemmCall) {
	var na, nb, nc int
	for _, c := range calls {
		a, b, cc := operandSizes(c)
		na, nb, nc = max(na, a), max(nb, b), max(nc, cc)
	}
	const sets = 4
	a, b, c := make([]float32, sets*na), make([]float32, sets*nb), make([]float32, sets*nc)
	set := func(i int) ([]float32, []float32, []float32) {
		s := i % sets
		return a[s*na : (s+1)*na], b[s*nb : (s+1)*nb], c[s*nc : (s+1)*nc]
	}
	for i := 0; i < len(calls); {
		if calls[i].Split {
			x := calls[i]
			sa, sb, sc := set(i)
			g.gemm(x.TA, x.TB, x.M, x.N, x.K, 1, sa, x.LDA, sb, x.LDB, 0, sc, x.LDC)
			i++
			continue
		}
		j := i
		for j < len(calls) && !calls[j].Split {
			j++
		}
		run := calls[i:j]
		g.parallel(len(run), int(run[0].Flops()/2), func(_, lo, hi int) {
			for k := lo; k < hi; k++ {
				x := run[k]
				sa, sb, sc := set(i + k)
				gemm1(x.TA, x.TB, x.M, x.N, x.K, 1, sa, x.LDA, sb, x.LDB, 0, sc, x.LDC)
			}
		})
		i = j
	}
}

// operandSizes is the floats each operand of c spans.
func operandSizes(c GemmCall) (a, b, cc int) {
	span := func(rows, cols, ld int) int { return (rows-1)*ld + cols }
	if c.TA {
		a = span(c.K, c.M, c.LDA)
	} else {
		a = span(c.M, c.K, c.LDA)
	}
	if c.TB {
		b = span(c.N, c.K, c.LDB)
	} else {
		b = span(c.K, c.N, c.LDB)
	}
	return a, b, span(c.M, c.N, c.LDC)
}
