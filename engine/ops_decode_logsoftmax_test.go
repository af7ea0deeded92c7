package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// LogSoftmaxInPlace must give LogSoftmax's bits (decoding's outputs may not
// change with it), for widths on and off the vector kernel's multiple of 8
// and with -Inf logits (a shortlist's excluded tokens).
func TestLogSoftmaxInPlaceMatchesLogSoftmax(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, shape := range [][2]int{{1, 1}, {3, 7}, {5, 8}, {17, 1003}, {160, 8000}} {
		n, v := shape[0], shape[1]
		x := NewTensor(n, v)
		for i := range x.Data {
			x.Data[i] = float32(r.NormFloat64() * 4)
			if v > 8 && r.IntN(5) == 0 {
				x.Data[i] = float32(math.Inf(-1))
			}
		}
		g := NewInference()
		want := g.LogSoftmax(x)
		got := g.LogSoftmaxInPlace(x)
		if &got.Data[0] != &x.Data[0] {
			t.Fatalf("%dx%d: result not in x's buffer", n, v)
		}
		for i := range want.Data {
			if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
				t.Fatalf("%dx%d: element %d is %v, LogSoftmax gives %v", n, v, i, got.Data[i], want.Data[i])
			}
		}
	}
}

// rowMax must find what LogSoftmax's loop finds, NaNs (passed over unless
// first) and -Inf included, on the vector path and the Go one.
func TestRowMaxMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	nan, inf := float32(math.NaN()), float32(math.Inf(-1))
	for _, vec := range []bool{true, false} {
		if vec && !haveAVX2FMA {
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
			got := rowMaxOn(xs, vec)
			if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
				t.Fatalf("vector %v, %v: max %v, the loop finds %v", vec, xs, got, want)
			}
		}
	}
}

// subScalarOn must round each element once, as x - c does, on both paths.
func TestSubScalarMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, vec := range []bool{true, false} {
		if vec && !haveAVX2FMA {
			continue
		}
		for trial := 0; trial < 100; trial++ {
			xs := make([]float32, 1+r.IntN(40))
			for i := range xs {
				xs[i] = float32(r.NormFloat64() * 10)
			}
			c := float32(r.NormFloat64() * 3)
			got := append([]float32(nil), xs...)
			subScalarOn(got, c, vec)
			for i, a := range xs {
				if want := a - c; math.Float32bits(got[i]) != math.Float32bits(want) {
					t.Fatalf("vector %v: element %d is %v, want %v", vec, i, got[i], want)
				}
			}
		}
	}
}

// mulSubOn must round the product and the difference each, on both paths.
func TestMulSubMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, vec := range []bool{true, false} {
		if vec && !haveAVX2FMA {
			continue
		}
		for trial := 0; trial < 100; trial++ {
			xs := make([]float32, 1+r.IntN(40))
			for i := range xs {
				xs[i] = float32(r.NormFloat64() * 10)
			}
			mul, sub := float32(r.Float64()), float32(r.Float64()*1e-3)
			got := append([]float32(nil), xs...)
			mulSubOn(got, mul, sub, vec)
			for i, a := range xs {
				if want := float32(a*mul) - sub; math.Float32bits(got[i]) != math.Float32bits(want) {
					t.Fatalf("vector %v: element %d is %v, want %v", vec, i, got[i], want)
				}
			}
		}
	}
}

// scaleTo is one rounded product per element, into a shorter destination
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
		scaleTo(dst, src, a)
		for i := range dst {
			if want := src[i] * a; math.Float32bits(dst[i]) != math.Float32bits(want) {
				t.Fatalf("element %d of %d is %v, want %v", i, len(dst), dst[i], want)
			}
		}
	}
}

// biasReluOn and reluGradOn must give LinearReLU's training bits on both
// paths: ReLU(x + b) by the sign bit, and dy kept exactly where the ReLU
// output is not +0 (zeros, negative zeros and NaNs among the inputs).
func TestBiasReluAndGradMatchLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), float32(math.Inf(-1)), float32(math.Inf(1))}
	for _, vec := range []bool{true, false} {
		if vec && !haveAVX2FMA {
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
			biasReluOn(ys, bias, vec)
			for i, x := range xs {
				bits := math.Float32bits(x + bias[i])
				if want := bits &^ uint32(int32(bits)>>31); math.Float32bits(ys[i]) != want {
					t.Fatalf("vector %v: ReLU element %d is %x, want %x", vec, i, math.Float32bits(ys[i]), want)
				}
			}
			ds := append([]float32(nil), dy...)
			reluGradOn(ds, ys, vec)
			for i, d := range dy {
				pass := uint32(int32(-math.Float32bits(ys[i])) >> 31)
				if want := math.Float32bits(d) & pass; math.Float32bits(ds[i]) != want {
					t.Fatalf("vector %v: gradient element %d is %x, want %x", vec, i, math.Float32bits(ds[i]), want)
				}
			}
		}
	}
}

// reluOn must give LinearReLU's bits: +0 for every element with the sign
// bit set (-0 and negative NaNs included), the element otherwise.
func TestReluMatchesBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	special := []float32{0, float32(math.Copysign(0, -1)), float32(math.NaN()), -float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))}
	for _, vec := range []bool{true, false} {
		if vec && !haveAVX2FMA {
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
			reluOn(got, vec)
			for i, a := range xs {
				want := a
				if math.Float32bits(a)>>31 == 1 {
					want = 0
				}
				if math.Float32bits(got[i]) != math.Float32bits(want) {
					t.Fatalf("vector %v: relu(%v) = %v, want %v", vec, a, got[i], want)
				}
			}
		}
	}
}
