package plot

import (
	"math"
	"path/filepath"
	"testing"
)

// TestDegenerateCharts: shapes that are valid but odd (a lone point, only
// NaNs, a constant matrix) must draw, not panic inside gonum.
func TestDegenerateCharts(t *testing.T) {
	dir := t.TempDir()
	nan := math.NaN()
	check(t, Bars(filepath.Join(dir, "b.png"), "t", []string{"a"}, []Series{{Name: "g", Y: []float64{nan}}}))
	check(t, Bars(filepath.Join(dir, "b2.png"), "t", []string{"a", "b"}, []Series{{Name: "g", Y: []float64{-1, 2}}}))
	check(t, Lines(filepath.Join(dir, "l.png"), "t", "x", "y", []Series{{Name: "one", X: []float64{3}, Y: []float64{4}}}))
	check(t, Lines(filepath.Join(dir, "l2.png"), "t", "x", "y", []Series{{Name: "one", X: []float64{3}, Y: []float64{4}}}, LogY()))
	check(t, Heatmap(filepath.Join(dir, "h.png"), "t", nil, nil, [][]float64{{math.Inf(1), 1}}, CellValues("%.0f"), NoColorBar()))
	big := make([][]float64, 60)
	for i := range big {
		big[i] = make([]float64, 60)
		big[i][i] = nan
	}
	check(t, Heatmap(filepath.Join(dir, "big.png"), "t", nil, nil, big))
}

func check(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
