package gemmfloor

import (
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// A traced Linear forward and backward counts its three products' work,
// and the trace replays, split over threads (one product large enough to
// split, transposed and not) and as parallel small products, within the
// scratch operands' bounds (the BLAS checks them).
func TestReplayTracedProducts(t *testing.T) {
	x, w := engine.NewTensor(6, 4), engine.NewTensor(5, 4)
	x.SetRequiresGrad(true)
	w.SetRequiresGrad(true)
	g := engine.NewGraph(1)
	stop := engine.TraceGemms()
	g.Backward(g.Sum(g.Linear(x, w, nil)))
	calls := stop()
	if got, want := TotalFlops(calls), 3*2.0*6*5*4; got != want {
		t.Fatalf("traced %v flops, want %v", got, want)
	}
	calls = append(calls,
		engine.GemmCall{M: 2, N: 3, K: 4, LDA: 4, LDB: 3, LDC: 3},
		engine.GemmCall{TA: true, M: 3, N: 2, K: 4, LDA: 3, LDB: 2, LDC: 2},
		engine.GemmCall{M: 128, N: 128, K: 128, LDA: 128, LDB: 128, LDC: 128, Split: true},
		engine.GemmCall{TA: true, TB: true, M: 130, N: 128, K: 128, LDA: 130, LDB: 128, LDC: 128, Split: true})
	for _, threads := range []int{1, 2, 3} {
		Replay(calls, threads)
	}
}
