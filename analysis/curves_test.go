package analysis

import (
	"slices"
	"testing"

	"github.com/strata-nmt/strata/rundir"
)

// Training NLL is averaged in windows, validation kept as is, and nothing
// past maxUpdate is drawn.
func TestLossCurves(t *testing.T) {
	recs := []rundir.Record{
		{Type: "train", Update: 1, NLL: 4}, {Type: "train", Update: 2, NLL: 2},
		{Type: "valid", Update: 2, Loss: 3},
		{Type: "train", Update: 3, NLL: 1}, {Type: "train", Update: 4, NLL: 1},
		{Type: "valid", Update: 4, Loss: 2},
		{Type: "train", Update: 5, NLL: 9}, {Type: "valid", Update: 6, Loss: 9},
	}
	tr, va := LossCurves(recs, 2, 4)
	if !slices.Equal(tr.Y, []float64{3, 1}) || !slices.Equal(va.X, []float64{2, 4}) || !slices.Equal(va.Y, []float64{3, 2}) {
		t.Errorf("train %v at %v, valid %v at %v; want train [3 1], valid [3 2] at [2 4]", tr.Y, tr.X, va.Y, va.X)
	}
	if tr, va := LossCurves(recs, 1, 0); len(tr.X) != 5 || len(va.X) != 3 {
		t.Errorf("maxUpdate 0 kept %d train and %d valid points, want 5 and 3", len(tr.X), len(va.X))
	}
}
