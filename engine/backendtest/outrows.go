package backendtest

import (
	"math"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// checkOutputRows runs a shortlisted output layer (an inference graph with
// SetOutputRows) on the backend and on the reference: the columns outside
// the shortlist must be -Inf on both, the others within the product's
// tolerance.
func checkOutputRows(t *testing.T, backend string, threads int) {
	const n, in, v = 13, 37, 101
	x, w := rand(1, n, in), rand(2, v, in)
	rows := engine.NewRowSubset([]int32{100, 3, 57, 0, 58, 21, 99})
	run := func(name string, threads int) []float32 {
		g := engine.NewInference()
		g.SetThreads(threads)
		if err := g.SetBackend(name); err != nil {
			t.Fatal(err)
		}
		g.SetOutputRows(rows)
		return append([]float32(nil), g.OutputLinear(x, w).Data...)
	}
	want, got := run(engine.BackendReference, 1), run(backend, threads)
	var wantIn, gotIn []float32 // the shortlisted columns
	for i := range want {
		if math.IsInf(float64(want[i]), -1) != math.IsInf(float64(got[i]), -1) {
			t.Fatalf("element %d (column %d) is %g, reference %g", i, i%v, got[i], want[i])
		}
		if !math.IsInf(float64(want[i]), -1) {
			wantIn, gotIn = append(wantIn, want[i]), append(gotIn, got[i])
		}
	}
	if len(wantIn) != n*len(rows.Rows()) {
		t.Fatalf("%d finite outputs, want %d", len(wantIn), n*len(rows.Rows()))
	}
	compare(t, "shortlisted outputs", gotIn, wantIn, TolProduct)
}
