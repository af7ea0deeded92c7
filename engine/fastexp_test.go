package engine

import (
	"math"
	"testing"
)

// expNegPoly must stay within 2.5e-7 relative error of math.Exp down to the
// smallest normal result, and handle the edges.
func TestExpNegPoly(t *testing.T) {
	worst := 0.0
	for x := float32(-87.33); x <= 0; x += 0.00317 {
		got, want := float64(expNegPoly(x)), math.Exp(float64(x))
		rel := math.Abs(got-want) / want
		if rel > 2.5e-7 {
			t.Fatalf("expNegPoly(%v) = %v, want %v (rel %.3g)", x, got, want, rel)
		}
		worst = max(worst, rel)
	}
	t.Logf("worst relative error %.3g", worst)
	if expNegPoly(0) != 1 || expNegPoly(-100) != 0 || expNegPoly(float32(math.Inf(-1))) != 0 {
		t.Fatalf("edges: expNegPoly(0)=%v expNegPoly(-100)=%v", expNegPoly(0), expNegPoly(-100))
	}
	if e := expNegPoly(float32(math.NaN())); e == e {
		t.Fatalf("expNegPoly(NaN) = %v", e)
	}
}

// BenchmarkExp compares expNegPoly with math.Exp on softmax-like arguments.
func BenchmarkExp(b *testing.B) {
	xs := benchData(4096)
	for i := range xs {
		xs[i] = -20 * (xs[i] + 1)
	}
	for _, f := range []struct {
		name string
		exp  func(float32) float32
	}{{"expNegPoly", expNegPoly}, {"math.Exp", func(x float32) float32 { return float32(math.Exp(float64(x))) }}} {
		b.Run(f.name, func(b *testing.B) {
			var s float32
			for i := 0; i < b.N; i++ {
				for _, x := range xs {
					s += f.exp(x)
				}
			}
			b.ReportMetric(float64(b.N*len(xs))/b.Elapsed().Seconds()/1e6, "Mexp/s")
		})
	}
}
