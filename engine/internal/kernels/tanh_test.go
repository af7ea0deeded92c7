package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTanhMatchesGo holds the AVX2 tanh to TanhGo bit for bit: random bit
// patterns over the whole float32 range (NaNs with payloads, infinities,
// subnormals), GRU-like pre-activations, the split at |v| = 0.625 and its
// neighbours, the edge where the exponential of -2|v| is flushed to zero
// and inputs that expose a constant one ulp off, in a length that leaves a
// tail for the Go loop.
// tanhULPInputs are the inputs, as bits, of the search below.
var tanhULPInputs = []uint32{0x3eae4e05, 0x3edcd733, 0x3f84d865, 0x3f314632, 0x3f97b1d0, 0x3f515278}

func TestTanhMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	xs := []float32{0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 1e-45, -1e-45,
		math.Float32frombits(0x007fffff), math.Float32frombits(0x807fffff), 1.1754944e-38, -1.1754944e-38,
		20, -20, 43.66827, -43.66827, 87.33654, -87.33654, 88, -88, 1e10, -1e10,
		math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)),
		math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc12345), math.Float32frombits(0x7f800001),
		math.Float32frombits(0xff800001), math.Float32frombits(0x7fffffff)}
	inf := float32(math.Inf(1))
	for _, e := range []float32{0.625, -0.625, 87.33654 / 2, -87.33654 / 2} {
		lo, hi := e, e
		for range 4 {
			lo, hi = math.Nextafter32(lo, -inf), math.Nextafter32(hi, inf)
			xs = append(xs, lo, hi)
		}
		xs = append(xs, e)
	}
	// Inputs whose output changes when a low-order constant is one ulp off
	// (the polynomial's c0, ExpNeg's ln2 correction, c1 and c2): a search
	// over every |v| < 48 found 2 to 104 such inputs in 2^31, which no
	// sample would hold. (One ulp of log2e, 0.5, minX or ExpNeg's c0, or
	// one ulp down of ExpNeg's c1 or of the split, changes no output.)
	for _, b := range tanhULPInputs {
		xs = append(xs, math.Float32frombits(b), math.Float32frombits(b|1<<31))
	}
	for range 1 << 18 {
		xs = append(xs, math.Float32frombits(rng.Uint32()), float32(rng.NormFloat64()*3))
	}
	xs = append(xs, 0.5, -0.5, 3, -3)
	if len(xs)%8 == 0 {
		xs = append(xs, 0.25)
	}
	want := make([]float32, len(xs))
	for i, v := range xs {
		want[i] = TanhGo(v)
	}
	got := make([]float32, len(xs))
	if !withAVX2(t, func() { Tanh(xs, got) }) {
		return
	}
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("tanh(%v) (bits %08x) = %v (bits %08x), TanhGo %v (bits %08x)", xs[i], math.Float32bits(xs[i]),
				got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// BenchmarkTanh compares the AVX2 kernel with TanhGo's loop on
// pre-activations of random sign, on both sides of the split.
func BenchmarkTanh(b *testing.B) {
	xs := testData(4096)
	for i := range xs {
		xs[i] *= 4
	}
	ys := make([]float32, len(xs))
	b.Run("go", func(b *testing.B) {
		b.SetBytes(int64(4 * len(xs)))
		for range b.N {
			for i, v := range xs {
				ys[i] = TanhGo(v)
			}
		}
	})
	b.Run("dispatch", func(b *testing.B) {
		b.SetBytes(int64(4 * len(xs)))
		for range b.N {
			Tanh(xs, ys)
		}
	})
}
