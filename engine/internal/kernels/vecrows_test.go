package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// RowMax must find what LogSoftmax's loop finds, NaNs (passed over unless
// first) and -Inf included, on the vector path and the Go one.
func TestRowMaxMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	nan, inf := float32(math.NaN()), float32(math.Inf(-1))
	for _, vec := range []bool{true, false} {
		if vec && !cpu.Detected.AVX2FMA {
			continue
		}
		for trial := 0; trial < 300; trial++ {
			xs := make([]float32, 1+r.IntN(70))
			for i := range xs {
				switch r.IntN(8) {
				case 0:
					xs[i] = nan
				case 1:
					xs[i] = inf
				default:
					xs[i] = float32(r.NormFloat64())
				}
			}
			want := xs[0]
			for _, a := range xs {
				if a > want {
					want = a
				}
			}
			got := RowMaxOn(xs, vec)
			if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
				t.Fatalf("vector %v, %v: max %v, the loop finds %v", vec, xs, got, want)
			}
		}
	}
}

// SubScalarOn must round each element once, as x - c does, on both paths.
func TestSubScalarMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, vec := range []bool{true, false} {
		if vec && !cpu.Detected.AVX2FMA {
			continue
		}
		for trial := 0; trial < 100; trial++ {
			xs := make([]float32, 1+r.IntN(40))
			for i := range xs {
				xs[i] = float32(r.NormFloat64() * 10)
			}
			c := float32(r.NormFloat64() * 3)
			got := append([]float32(nil), xs...)
			SubScalarOn(got, c, vec)
			for i, a := range xs {
				if want := a - c; math.Float32bits(got[i]) != math.Float32bits(want) {
					t.Fatalf("vector %v: element %d is %v, want %v", vec, i, got[i], want)
				}
			}
		}
	}
}

// MulSubOn must round the product and the difference each, on both paths.
func TestMulSubMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, vec := range []bool{true, false} {
		if vec && !cpu.Detected.AVX2FMA {
			continue
		}
		for trial := 0; trial < 100; trial++ {
			xs := make([]float32, 1+r.IntN(40))
			for i := range xs {
				xs[i] = float32(r.NormFloat64() * 10)
			}
			mul, sub := float32(r.Float64()), float32(r.Float64()*1e-3)
			got := append([]float32(nil), xs...)
			MulSubOn(got, mul, sub, vec)
			for i, a := range xs {
				if want := float32(a*mul) - sub; math.Float32bits(got[i]) != math.Float32bits(want) {
					t.Fatalf("vector %v: element %d is %v, want %v", vec, i, got[i], want)
				}
			}
		}
	}
}

// ScaleTo is one rounded product per element, into a shorter destination
// (the kernel's 8-lane blocks and the Go tail).
func TestScaleToMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 100; trial++ {
		src := make([]float32, 1+r.IntN(40))
		for i := range src {
			src[i] = float32(r.NormFloat64() * 10)
		}
		dst := make([]float32, 1+r.IntN(len(src)))
		a := float32(r.Float64())
		ScaleTo(dst, src, a)
		for i := range dst {
			if want := src[i] * a; math.Float32bits(dst[i]) != math.Float32bits(want) {
				t.Fatalf("element %d of %d is %v, want %v", i, len(dst), dst[i], want)
			}
		}
	}
}

// BiasReluOn and ReluGradOn must give LinearReLU's training bits on both
// paths: ReLU(x + b) by the sign bit, and dy kept exactly where the ReLU
// output is not +0 (zeros, negative zeros and NaNs among the inputs).
func TestBiasReluAndGradMatchLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(-1)), float32(math.Inf(1))}
	for _, vec := range []bool{true, false} {
		if vec && !cpu.Detected.AVX2FMA {
			continue
		}
		for trial := 0; trial < 100; trial++ {
			n := 1 + r.IntN(40)
			xs, bias, dy := make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range xs {
				xs[i], bias[i], dy[i] = float32(r.NormFloat64()), float32(r.NormFloat64()*0.1), float32(r.NormFloat64())
				if r.IntN(6) == 0 {
					xs[i], bias[i] = special[r.IntN(len(special))], 0
				}
			}
			ys := append([]float32(nil), xs...)
			BiasReluOn(ys, bias, vec)
			for i, x := range xs {
				bits := math.Float32bits(x + bias[i])
				if want := bits &^ uint32(int32(bits)>>31); math.Float32bits(ys[i]) != want {
					t.Fatalf("vector %v: ReLU element %d is %x, want %x", vec, i, math.Float32bits(ys[i]), want)
				}
			}
			ds := append([]float32(nil), dy...)
			ReluGradOn(ds, ys, vec)
			for i, d := range dy {
				pass := uint32(int32(-math.Float32bits(ys[i])) >> 31)
				if want := math.Float32bits(d) & pass; math.Float32bits(ds[i]) != want {
					t.Fatalf("vector %v: gradient element %d is %x, want %x", vec, i, math.Float32bits(ds[i]), want)
				}
			}
		}
	}
}

// ReluOn must give LinearReLU's bits: +0 for every element with the sign
// bit set (-0 and negative NaNs included), the element otherwise.
func TestReluMatchesBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), -float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	for _, vec := range []bool{true, false} {
		if vec && !cpu.Detected.AVX2FMA {
			continue
		}
		for trial := 0; trial < 100; trial++ {
			xs := make([]float32, 1+r.IntN(40))
			for i := range xs {
				xs[i] = float32(r.NormFloat64())
				if r.IntN(4) == 0 {
					xs[i] = special[r.IntN(len(special))]
				}
			}
			got := append([]float32(nil), xs...)
			ReluOn(got, vec)
			for i, a := range xs {
				want := a
				if math.Float32bits(a)>>31 == 1 {
					want = 0
				}
				if math.Float32bits(got[i]) != math.Float32bits(want) {
					t.Fatalf("vector %v: Relu(%v) = %v, want %v", vec, a, got[i], want)
				}
			}
		}
	}
}
