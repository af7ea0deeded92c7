package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSigmoidMatchesGo holds the AVX2 sigmoid to SigmoidGo bit for bit:
// random bit patterns over the whole float32 range (NaNs with payloads,
// infinities, subnormals), GRU-like pre-activations, and the edges where
// the exponential is flushed to zero, in a length that leaves a tail for
// the Go loop.
func TestSigmoidMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	xs := []float32{0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 1e-45, -1e-45,
		87.33654, -87.33654, 87.33655, -87.33655, 88, -88, 104, -104,
		math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)),
		math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc12345), math.Float32frombits(0x7f800001)}
	// ExpNeg's arguments at which TestTanhMatchesGo's inputs expose one of
	// its constants one ulp off (σ(v) takes ExpNeg(-|v|), tanh(v)
	// ExpNeg(-2|v|): doubling is exact)
	for _, b := range tanhULPInputs {
		v := 2 * math.Float32frombits(b)
		xs = append(xs, v, -v)
	}
	for range 1 << 18 {
		xs = append(xs, math.Float32frombits(rng.Uint32()), float32(rng.NormFloat64()*4))
	}
	xs = append(xs, 0.5, -0.5, 3, -3) // 2^19 + 25 values: a tail of 1 after the multiples of 8
	want := make([]float32, len(xs))
	for i, v := range xs {
		want[i] = SigmoidGo(v)
	}
	got := make([]float32, len(xs))
	if !withAVX2(t, func() { Sigmoid(xs, got) }) {
		return
	}
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("σ(%v) (bits %08x) = %v, SigmoidGo %v", xs[i], math.Float32bits(xs[i]), got[i], want[i])
		}
	}
	if len(xs)%8 == 0 {
		t.Fatal("no tail: the Go loop after the assembly is not tested")
	}
}

// BenchmarkSigmoid compares the AVX2 kernel with SigmoidGo's loop on
// pre-activations of random sign.
func BenchmarkSigmoid(b *testing.B) {
	xs := testData(4096)
	for i := range xs {
		xs[i] *= 8
	}
	ys := make([]float32, len(xs))
	b.Run("go", func(b *testing.B) {
		b.SetBytes(int64(4 * len(xs)))
		for range b.N {
			for i, v := range xs {
				ys[i] = SigmoidGo(v)
			}
		}
	})
	b.Run("dispatch", func(b *testing.B) {
		b.SetBytes(int64(4 * len(xs)))
		for range b.N {
			Sigmoid(xs, ys)
		}
	})
}
