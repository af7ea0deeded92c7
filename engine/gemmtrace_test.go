package engine

import "testing"

// A traced Linear forward and backward records its three products (y = x·Wᵀ,
// dx = dy·W, dW = dyᵀ·x) with their shapes, and nothing after the trace
// stops.
func TestTraceGemms(t *testing.T) {
	r := NewRNG(1)
	x, w := param(r, "x", 6, 4), param(r, "w", 5, 4)
	g := NewGraph(1)
	stop := TraceGemms()
	y := g.Linear(x, w, nil)
	g.Backward(g.Sum(y))
	calls := stop()
	g.Linear(x, w, nil) // not traced
	if len(calls) != 3 {
		t.Fatalf("%d calls traced, want 3: %+v", len(calls), calls)
	}
	for _, c := range calls {
		if !c.Split {
			t.Errorf("Linear's product %+v recorded as a small in-job product", c)
		}
		if c.M*c.N*c.K != 6*5*4 {
			t.Errorf("product %+v, want 6·5·4 multiply-adds", c)
		}
	}
	if f := calls[0]; f.M != 6 || f.N != 5 || f.K != 4 {
		t.Fatalf("forward product %+v, want 6×5 over 4", f)
	}
}
