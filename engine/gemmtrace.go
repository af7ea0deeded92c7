package engine

import (
	"sync"
	"sync/atomic"
)

// Matrix-product traces: a benchmark records the products of one training
// step (or one decoding run) to check the work it counts and to replay
// them alone (bench/internal/gemmfloor). Only the hook is here; while no
// trace runs it costs one atomic load per product.

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
