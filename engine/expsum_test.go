package engine

import (
	"math"
	"testing"
)

// expSums (vectorised on amd64) has expNegPoly's accuracy on the whole
// range, its edges (0, below 2^-126, -Inf, NaN), every tail length, and
// sums that match float64 arithmetic.
func TestExpSums(t *testing.T) {
	if !haveAVX2FMA {
		t.Log("no AVX2+FMA here: checking the scalar path only")
	}
	var z []float32
	for x := float32(-87.33); x <= 0; x += 0.00317 {
		z = append(z, x+3) // shifted by mx = 3 below
	}
	for _, n := range []int{len(z), len(z) - 1, len(z) - 7, 9, 8, 7, 1} {
		zs := z[:n]
		dr := make([]float32, n)
		sum, sumZ := expSums(zs, 3, dr)
		var wantSum, wantZ float64
		for j, x := range zs {
			want := math.Exp(float64(x) - 3)
			if rel := math.Abs(float64(dr[j])-want) / want; rel > 2.5e-7 {
				t.Fatalf("n=%d: e^%v = %v, want %v (rel %.3g)", n, x-3, dr[j], want, rel)
			}
			wantSum += float64(dr[j])
			wantZ += float64(x)
		}
		if !near(sum, wantSum, 1e-12*math.Abs(wantSum)) || !near(sumZ, wantZ, 1e-12*math.Abs(wantZ)+1e-9) {
			t.Fatalf("n=%d: sums %v %v, want %v %v", n, sum, sumZ, wantSum, wantZ)
		}
		if s2, _ := expSums(zs, 3, nil); s2 != sum {
			t.Fatalf("n=%d: sum without storing %v, with %v", n, s2, sum)
		}
	}
	inf := float32(math.Inf(-1))
	edges := []float32{0, -100, inf, -87.4, -87.3, 0, 0, 0, -1, 0}
	dr := make([]float32, len(edges))
	expSums(edges, 0, dr)
	for j, want := range []float32{1, 0, 0, 0, expNegPoly(-87.3), 1, 1, 1, expNegPoly(-1), 1} {
		if j == 4 || j == 8 {
			if rel := math.Abs(float64(dr[j]-want)) / float64(want); rel > 2.5e-7 {
				t.Fatalf("e^%v = %v, want %v", edges[j], dr[j], want)
			}
			continue
		}
		if dr[j] != want {
			t.Fatalf("e^%v = %v, want %v", edges[j], dr[j], want)
		}
	}
	nan := make([]float32, 16)
	nan[3] = float32(math.NaN())
	if s, _ := expSums(nan, 0, nil); !math.IsNaN(s) {
		t.Fatalf("a NaN logit gives sum %v; it must stay NaN so that divergence is seen", s)
	}
}

// The AVX-512 kernel gives the AVX2 kernel's exponentials and sums to the
// bit, at every length (its 16-lane blocks, then an 8-lane block, then the
// scalar tail) and on the edges (below 2^-126, -Inf, NaN) in every lane.
func TestExpSumsAVX512SameBits(t *testing.T) {
	if !haveAVX512F32 {
		t.Skip("no AVX-512 here: expSums runs its AVX2 kernel")
	}
	r := NewRNG(11)
	inf, nan := float32(math.Inf(-1)), float32(math.NaN())
	for _, n := range []int{16, 17, 23, 24, 31, 32, 47, 100, 8000, 8508} {
		z := make([]float32, n)
		for j := range z {
			z[j] = float32(r.Float64()*60 - 50)
		}
		if n == 32 { // the edges, in the AVX-512 blocks
			copy(z[3:], []float32{-100, inf, -87.4, -87.3, 0})
			copy(z[19:], []float32{inf, -95, 2})
		}
		for _, nanAt := range []int{-1, n / 3} {
			if nanAt >= 0 {
				z[nanAt] = nan
			}
			got, want := make([]float32, n), make([]float32, n)
			s1, z1 := expSums(z, 1.5, got)
			expSums512 = false
			s2, z2 := expSums(z, 1.5, want)
			expSums512 = true
			same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
			if !same(s1, s2) || !same(z1, z2) {
				t.Fatalf("n=%d nan at %d: sums %v %v with AVX-512, %v %v with AVX2", n, nanAt, s1, z1, s2, z2)
			}
			for j := range got {
				if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
					t.Fatalf("n=%d: e^(%v-1.5) = %v with AVX-512, %v with AVX2", n, z[j], got[j], want[j])
				}
			}
		}
	}
}

// BenchmarkExpSums compares the vectorised sums with the scalar loop on a
// vocabulary-sized row (and, on AVX-512 CPUs, with the AVX2 kernel).
func BenchmarkExpSums(b *testing.B) {
	z := benchData(8000)
	dr := make([]float32, len(z))
	b.Run("expSums", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			expSums(z, 1, dr)
		}
	})
	if haveAVX512F32 {
		b.Run("avx2", func(b *testing.B) {
			defer func() { expSums512 = true }()
			expSums512 = false
			for i := 0; i < b.N; i++ {
				expSums(z, 1, dr)
			}
		})
	}
	b.Run("scalar", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var s, sz float64
			for j, x := range z {
				e := expNegPoly(x - 1)
				dr[j] = e
				s += float64(e)
				sz += float64(x)
			}
			sinkVec += float32(s + sz)
		}
	})
}
