package engine

import (
	"math"
	"testing"
)

// The table behind ensembles (logAddExp) against math.Log1p(math.Exp(-d)).
func TestLog1pExpNeg(t *testing.T) {
	worst := 0.0
	for d := float32(0); d < 30; d += 0.000731 {
		got, want := float64(log1pExpNeg(d)), math.Log1p(math.Exp(-float64(d)))
		worst = max(worst, math.Abs(got-want))
	}
	if worst > 2e-7 {
		t.Fatalf("worst absolute error %.3g, want ≤ 2e-7", worst)
	}
	if log1pExpNeg(float32(math.Inf(1))) != 0 || math.Abs(float64(log1pExpNeg(0))-math.Ln2) > 1e-7 {
		t.Fatalf("edges: %v %v", log1pExpNeg(float32(math.Inf(1))), log1pExpNeg(0))
	}
}
