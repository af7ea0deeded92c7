package engine

import (
	"fmt"
	"math"
	"testing"

	"github.com/strata-nmt/strata/engine/blas"
)

// Candidate plain-Go kernels for attention's per-(sentence, head) products
// (about 32×32×64, six per head per step). They were written to avoid the
// cost of crossing into C for such small products, but
// BenchmarkAttentionProducts measured OpenBLAS through purego 10-20x faster
// (about 10 GFLOP/s against 0.7-1.1 once the call allocates nothing), so the
// engine keeps calling the backend; the kernels stay here, tested, so the
// comparison can be rerun.

// gemmNT sets or accumulates c = beta·c + alpha·a·bᵀ with a m×k, b n×k
// (rows of both contiguous), c m×n; beta is 0 or 1.
func gemmNT(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	i := 0
	for ; i+1 < m; i += 2 {
		a0, a1 := a[i*lda:i*lda+k], a[(i+1)*lda:(i+1)*lda+k]
		c0, c1 := c[i*ldc:i*ldc+n], c[(i+1)*ldc:(i+1)*ldc+n]
		j := 0
		for ; j+1 < n; j += 2 {
			b0, b1 := b[j*ldb:j*ldb+k], b[(j+1)*ldb:(j+1)*ldb+k]
			var s00, s01, s10, s11 float32
			for p := range a0 {
				x0, x1, y0, y1 := a0[p], a1[p], b0[p], b1[p]
				s00 += x0 * y0
				s01 += x0 * y1
				s10 += x1 * y0
				s11 += x1 * y1
			}
			store2(c0, j, alpha, beta, s00, s01)
			store2(c1, j, alpha, beta, s10, s11)
		}
		if j < n {
			b0 := b[j*ldb : j*ldb+k]
			c0[j] = beta*c0[j] + alpha*dot32(a0, b0)
			c1[j] = beta*c1[j] + alpha*dot32(a1, b0)
		}
	}
	if i < m {
		a0, c0 := a[i*lda:i*lda+k], c[i*ldc:i*ldc+n]
		for j := range c0 {
			c0[j] = beta*c0[j] + alpha*dot32(a0, b[j*ldb:j*ldb+k])
		}
	}
}

func store2(c []float32, j int, alpha, beta, s0, s1 float32) {
	c = c[j : j+2]
	c[0] = beta*c[0] + alpha*s0
	c[1] = beta*c[1] + alpha*s1
}

func dot32(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1 float32
	p := 0
	for ; p+1 < len(a); p += 2 {
		s0 += a[p] * b[p]
		s1 += a[p+1] * b[p+1]
	}
	if p < len(a) {
		s0 += a[p] * b[p]
	}
	return s0 + s1
}

// gemmNN sets or accumulates c = beta·c + alpha·a·b with a m×k, b k×n;
// beta is 0 or 1. Each row of c is built as a sum of rows of b, four at a
// time so that c is loaded and stored once per four.
func gemmNN(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		ci := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(ci)
		}
		ai := a[i*lda : i*lda+k]
		rowCombination(ci, ai, 1, k, alpha, b, ldb)
	}
}

// gemmTN sets or accumulates c = beta·c + alpha·aᵀ·b with a k×m, b k×n;
// beta is 0 or 1.
func gemmTN(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		ci := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(ci)
		}
		rowCombination(ci, a[i:], lda, k, alpha, b, ldb)
	}
}

// rowCombination adds alpha·Σ_p coef[p·stride]·b[p,:] to ci for the k rows
// p of b. Zero coefficients (masked or dropped attention weights) are
// skipped in groups of four.
func rowCombination(ci, coef []float32, stride, k int, alpha float32, b []float32, ldb int) {
	n := len(ci)
	p := 0
	for ; p+3 < k; p += 4 {
		w0, w1, w2, w3 := alpha*coef[p*stride], alpha*coef[(p+1)*stride], alpha*coef[(p+2)*stride], alpha*coef[(p+3)*stride]
		if w0 == 0 && w1 == 0 && w2 == 0 && w3 == 0 {
			continue
		}
		b0, b1, b2, b3 := b[p*ldb:p*ldb+n], b[(p+1)*ldb:(p+1)*ldb+n], b[(p+2)*ldb:(p+2)*ldb+n], b[(p+3)*ldb:(p+3)*ldb+n]
		for j := range ci {
			ci[j] += w0*b0[j] + w1*b1[j] + w2*b2[j] + w3*b3[j]
		}
	}
	for ; p < k; p++ {
		w := alpha * coef[p*stride]
		if w == 0 {
			continue
		}
		axpy(ci, b[p*ldb:p*ldb+n], w)
	}
}

// The Go kernels must agree with the BLAS backend for every transpose form
// they implement, with strided operands and both beta values.
func TestSmallGemmMatchesBLAS(t *testing.T) {
	r := NewRNG(5)
	rnd := func(n int) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(r.Float64()*2 - 1)
		}
		return s
	}
	type kernel func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	forms := []struct {
		name   string
		ta, tb bool
		f      kernel
	}{{"NT", false, true, gemmNT}, {"NN", false, false, gemmNN}, {"TN", true, false, gemmTN}}
	for _, fm := range forms {
		for _, sh := range [][3]int{{7, 5, 3}, {32, 32, 64}, {1, 9, 4}, {6, 1, 13}} {
			for _, beta := range []float32{0, 1} {
				m, n, k := sh[0], sh[1], sh[2]
				ar, ac := m, k
				if fm.ta {
					ar, ac = k, m
				}
				br, bc := k, n
				if fm.tb {
					br, bc = n, k
				}
				lda, ldb, ldc := ac+3, bc+2, n+1 // strided views, as in attention
				a, b, c := rnd(ar*lda), rnd(br*ldb), rnd(m*ldc)
				want := append([]float32(nil), c...)
				blas.Go().Sgemm(fm.ta, fm.tb, m, n, k, 0.5, a, lda, b, ldb, beta, want, ldc)
				fm.f(m, n, k, 0.5, a, lda, b, ldb, beta, c, ldc)
				for i := range c {
					if math.Abs(float64(c[i]-want[i])) > 1e-5 {
						t.Fatalf("%s %v beta=%v: c[%d]=%v want %v", fm.name, sh, beta, i, c[i], want[i])
					}
				}
			}
		}
	}
}

// BenchmarkAttentionProducts times one head's six attention products
// (32×32×64) through the backend and through the Go kernels.
func BenchmarkAttentionProducts(b *testing.B) {
	const t, dh = 32, 64
	q, k, v, p, ctx := benchData(t*dh), benchData(t*dh), benchData(t*dh), benchData(t*t), make([]float32, t*dh)
	dq, dk, dv, dp := make([]float32, t*dh), make([]float32, t*dh), make([]float32, t*dh), make([]float32, t*t)
	impls := []struct {
		name       string
		nt, nn, tn func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	}{
		{"go", gemmNT, gemmNN, gemmTN},
		{"blas", blasForm(false, true), blasForm(false, false), blasForm(true, false)},
	}
	for _, im := range impls {
		b.Run(fmt.Sprintf("%s/%dx%dx%d", im.name, t, t, dh), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				im.nt(t, t, dh, 0.125, q, dh, k, dh, 0, p, t)
				im.nn(t, dh, t, 1, p, t, v, dh, 0, ctx, dh)
				im.tn(t, dh, t, 1, p, t, ctx, dh, 1, dv, dh)
				im.nt(t, t, dh, 1, ctx, dh, v, dh, 0, dp, t)
				im.nn(t, dh, t, 0.125, dp, t, k, dh, 1, dq, dh)
				im.tn(t, dh, t, 0.125, dp, t, q, dh, 1, dk, dh)
			}
			reportGFLOPS(b, 6*t, t, dh)
		})
	}
}

func blasForm(ta, tb bool) func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	return func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		blas.Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}
