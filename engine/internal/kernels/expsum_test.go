package kernels

import (
	"math"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// cpuHasAVX2 reports whether this CPU (and build) runs the AVX2 kernels.
func cpuHasAVX2() bool { return cpu.Detected.AVX2FMA }

// expSumsInput is n logits in [-50, 10), with the edges (below 2^-126 after
// the shift, -Inf, 0) in the vector blocks when n allows.
func expSumsInput(n int) []float32 {
	z := testData(n)
	for j := range z {
		z[j] = z[j]*30 - 20
	}
	inf := float32(math.Inf(-1))
	if n >= 32 {
		copy(z[3:], []float32{-100, inf, -87.4 + 1.5, -87.3 + 1.5, 1.5})
		copy(z[19:], []float32{inf, -95, 2})
	}
	return z
}

// The vector kernels' exponentials and sums agree with ExpSumsGo's to the
// polynomial's accuracy (each within 2.5e-7 of e^x, so within 5e-7 of each
// other; the assembly fuses its multiply-adds), exactly on the edges, at
// every length (16-lane blocks, an 8-lane block, the scalar tail).
func TestExpSumsMatchGo(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 16, 17, 23, 24, 31, 32, 47, 100, 8000, 8508} {
		z := expSumsInput(n)
		want := make([]float32, n)
		ws, wz := ExpSumsGo(z, 1.5, want)
		got := make([]float32, n)
		var gs, gz float64
		if !withAVX2(t, func() { gs, gz = ExpSums(z, 1.5, got) }) {
			return
		}
		for j := range got {
			if d := math.Abs(float64(got[j]) - float64(want[j])); d > 5e-7*float64(want[j]) {
				t.Fatalf("n=%d: e^(%v-1.5) = %v, Go %v", n, z[j], got[j], want[j])
			}
		}
		if math.Abs(gs-ws) > 5e-7*ws || gz != wz {
			t.Fatalf("n=%d: sums %v %v, Go %v %v", n, gs, gz, ws, wz)
		}
	}
}

// The AVX-512 kernel gives the AVX2 kernel's exponentials and sums to the
// bit, at every length (its 16-lane blocks, then an 8-lane block, then the
// scalar tail) and on the edges (below 2^-126, -Inf, NaN) in every lane.
func TestExpSumsAVX512SameBits(t *testing.T) {
	if !cpu.Detected.AVX512F32 || !cpu.Detected.AVX2FMA {
		t.Skip("no AVX-512 here: ExpSums runs its AVX2 kernel at most")
	}
	defer func(a, b bool) { avx2, avx512 = a, b }(avx2, avx512)
	avx2 = true
	nan := float32(math.NaN())
	for _, n := range []int{16, 17, 23, 24, 31, 32, 47, 100, 8000, 8508} {
		z := expSumsInput(n)
		for _, nanAt := range []int{-1, n / 3} {
			if nanAt >= 0 {
				z[nanAt] = nan
			}
			got, want := make([]float32, n), make([]float32, n)
			avx512 = true
			s1, z1 := ExpSums(z, 1.5, got)
			avx512 = false
			s2, z2 := ExpSums(z, 1.5, want)
			same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
			if !same(s1, s2) || !same(z1, z2) {
				t.Fatalf("n=%d nan at %d: sums %v %v with AVX-512, %v %v with AVX2", n, nanAt, s1, z1, s2, z2)
			}
			sameBits(t, "exponentials", got, want)
		}
	}
}

// BenchmarkExpSums compares the vectorised sums with the Go loop on a
// vocabulary-sized row (and, on AVX-512 CPUs, with the AVX2 kernel).
func BenchmarkExpSums(b *testing.B) {
	z := testData(8000)
	dr := make([]float32, len(z))
	b.Run("ExpSums", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			ExpSums(z, 1, dr)
		}
	})
	if avx512 {
		b.Run("avx2", func(b *testing.B) {
			defer func(v bool) { avx512 = v }(avx512)
			avx512 = false
			for i := 0; i < b.N; i++ {
				ExpSums(z, 1, dr)
			}
		})
	}
	b.Run("go", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			ExpSumsGo(z, 1, dr)
		}
	})
}
