package engine

import (
	"math"
	"testing"
)

// logNormal against math.Log: within 2 ulp-ish of the result (absolute
// 2e-7 near ln 1 = 0, relative 2e-7 elsewhere) over the normal range, and
// densely over [1, 16], where LogMeanExp's arguments lie.
func TestLogNormal(t *testing.T) {
	check := func(x float32) {
		got, want := float64(logNormal(x)), math.Log(float64(x))
		if err := math.Abs(got - want); err > 2e-7*max(1, math.Abs(want)) {
			t.Fatalf("logNormal(%v) = %v, want %v (error %.3g)", x, got, want, err)
		}
	}
	for x := float32(1); x <= 16; x += 1.0 / 4096 {
		check(x)
	}
	for x := float32(1.2e-38); x < 3e38; x *= 1.0007 {
		check(x)
	}
	if logNormal(1) != 0 {
		t.Fatalf("logNormal(1) = %v", logNormal(1))
	}
}

// The table behind two-model ensembles against math.Log1p(math.Exp(-d)).
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
