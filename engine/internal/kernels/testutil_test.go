package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

func randF32(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	return s
}

// withAVX2 runs f with the AVX2 guard on, where this CPU (and build) can
// run the assembly, whatever STRATA_ISA chose; it reports whether f ran.
func withAVX2(t *testing.T, f func()) bool {
	t.Helper()
	if !cpu.Detected.AVX2FMA {
		t.Log("no AVX2+FMA here: the assembly is not compared")
		return false
	}
	defer func(v bool) { avx2 = v }(avx2)
	avx2 = true
	f()
	return true
}

// sameBits fails unless got and want are equal bit for bit.
func sameBits(t *testing.T, what string, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: [%d] = %v, reference %v", what, i, got[i], want[i])
		}
	}
}

// testData is n values in [-1, 1) from a fixed seed.
func testData(n int) []float32 {
	rng := rand.New(rand.NewPCG(3, 3))
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.Float64()*2 - 1)
	}
	return s
}
