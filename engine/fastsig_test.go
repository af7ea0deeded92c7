package engine

import (
	"math"
	"testing"
)

// TestSigmoidTanh32 holds the float32 sigmoid and tanh to the float64
// library within TolFunc's relative 2e-6 (absolute 1e-30 for outputs that
// underflow), across the range, near zero, at the split point and at the
// edges.
func TestSigmoidTanh32(t *testing.T) {
	check := func(name string, got, want float64, x float32) {
		t.Helper()
		if math.Abs(got-want) > 2e-6*math.Abs(want)+1e-30 {
			t.Fatalf("%s(%v) = %v, want %v", name, x, got, want)
		}
	}
	xs := []float32{0, 1e-30, -1e-30, 1e-6, -1e-6, 0.624999, 0.625, -0.625, 20, -20, 87, -87, 100, -100}
	for x := float32(-60); x <= 60; x += 0.00731 {
		xs = append(xs, x)
	}
	for _, x := range xs {
		f := float64(x)
		check("sigmoid32", float64(sigmoid32(x)), 1/(1+math.Exp(-f)), x)
		check("tanh32", float64(tanh32(x)), math.Tanh(f), x)
	}
	inf := float32(math.Inf(1))
	if sigmoid32(inf) != 1 || sigmoid32(-inf) != 0 || tanh32(inf) != 1 || tanh32(-inf) != -1 {
		t.Fatalf("infinities: σ(±Inf) = %v, %v; tanh(±Inf) = %v, %v", sigmoid32(inf), sigmoid32(-inf), tanh32(inf), tanh32(-inf))
	}
	nan := float32(math.NaN())
	if s, h := sigmoid32(nan), tanh32(nan); s == s || h == h {
		t.Fatalf("NaN in: σ = %v, tanh = %v", s, h)
	}
}

// BenchmarkSigmoidTanh compares the float32 functions with the float64
// library calls they replaced, on GRU-like pre-activations.
func BenchmarkSigmoidTanh(b *testing.B) {
	xs := benchData(4096)
	for i := range xs {
		xs[i] *= 4
	}
	for _, f := range []struct {
		name string
		fn   func(float32) float32
	}{
		{"sigmoid32", sigmoid32},
		{"sigmoid/math.Exp", func(v float32) float32 { return float32(1 / (1 + math.Exp(-float64(v)))) }},
		{"tanh32", tanh32},
		{"tanh/math.Tanh", func(v float32) float32 { return float32(math.Tanh(float64(v))) }},
	} {
		b.Run(f.name, func(b *testing.B) {
			var s float32
			for range b.N {
				for _, x := range xs {
					s += f.fn(x)
				}
			}
			sinkVec = s
		})
	}
}
