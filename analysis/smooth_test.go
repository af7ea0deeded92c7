package analysis

import (
	"slices"
	"testing"
)

func TestWindowMeans(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7}
	ys := []float64{1, 3, 5, 7, 9, 11, 100}
	mx, my := WindowMeans(xs, ys, 3)
	if !slices.Equal(mx, []float64{3, 6}) || !slices.Equal(my, []float64{3, 9}) {
		t.Errorf("windows of 3: x %v y %v, want [3 6] [3 9] (the short last window dropped)", mx, my)
	}
	mx, my = WindowMeans(xs, ys, 1)
	if !slices.Equal(mx, xs) || !slices.Equal(my, ys) {
		t.Errorf("n = 1 changed the points: %v %v", mx, my)
	}
}
