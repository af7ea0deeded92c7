package blas

import (
	"math"
	"math/rand"
	"testing"
)

func naive(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int) []float64 {
	out := make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p < k; p++ {
				var av, bv float32
				if transA {
					av = a[p*lda+i]
				} else {
					av = a[i*lda+p]
				}
				if transB {
					bv = b[j*ldb+p]
				} else {
					bv = b[p*ldb+j]
				}
				s += float64(av) * float64(bv)
			}
			out[i*n+j] = s
		}
	}
	return out
}

func randSlice(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

// Both backends must agree with a float64 reference for every transpose
// combination, including alpha/beta accumulation into C.
func TestBackendsAgreeWithReference(t *testing.T) {
	backends := []Backend{Go()}
	if d := Default(); d.Name() != Go().Name() {
		backends = append(backends, d)
	} else {
		t.Log("no CBLAS library found; testing the pure-Go backend only")
	}
	r := rand.New(rand.NewSource(1))
	m, n, k := 37, 29, 53
	for _, be := range backends {
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				a := randSlice(r, m*k)
				b := randSlice(r, k*n)
				c0 := randSlice(r, m*n)
				lda, ldb := k, n
				if ta {
					lda = m
				}
				if tb {
					ldb = k
				}
				c := append([]float32(nil), c0...)
				be.Sgemm(ta, tb, m, n, k, 0.5, a, lda, b, ldb, 2, c, n)
				want := naive(ta, tb, m, n, k, a, lda, b, ldb)
				for i := range c {
					w := 0.5*want[i] + 2*float64(c0[i])
					if math.Abs(float64(c[i])-w) > 1e-4 {
						t.Fatalf("%s ta=%v tb=%v: c[%d]=%v want %v", be.Name(), ta, tb, i, c[i], w)
					}
				}
			}
		}
	}
}
