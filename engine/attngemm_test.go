package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// attnGemm against a float64 loop, over widths that exercise the 32- and
// 8-column tiles and the Go tail, odd row counts, transposed A, alpha and
// accumulation, and the causal bands (entries a band skips must be ones
// the mask makes zero or unused).
func TestAttnGemmMatchesLoop(t *testing.T) {
	defer func(h bool) { attnTiles = h }(attnTiles)
	for _, asm := range []bool{attnTiles, false} {
		attnTiles = asm
		testAttnGemmShapes(t)
	}
}

func testAttnGemmShapes(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][3]int{{1, 1, 1}, {2, 8, 3}, {3, 32, 5}, {7, 45, 9}, {32, 32, 64}, {33, 64, 31}, {5, 70, 1}, {4, 13, 0}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, trans := range []bool{false, true} {
			for _, kind := range []bandKind{bandNone, bandCols, bandInner, bandInnerFrom} {
				for _, acc := range []bool{false, true} {
					checkAttnGemmCase(t, r, m, n, k, trans, band{kind, r.IntN(3) - 1 + max(0, k-m)}, acc)
				}
			}
		}
	}
}

func checkAttnGemmCase(t *testing.T, r *rand.Rand, m, n, k int, trans bool, bd band, acc bool) {
	t.Helper()
	ars, acs := k+2, 1 // A is m×k with padded rows
	if trans {
		ars, acs = 1, m+1 // A is stored k×m (plus a column)
	}
	a := randVec(r, m*(k+2)+k*(m+1))
	aij := func(i, p int) *float32 { return &a[i*ars+p*acs] }
	for i := 0; i < m; i++ { // zero what the band says is zero
		for p := 0; p < k; p++ {
			if bd.kind == bandInner && p > i+bd.off || bd.kind == bandInnerFrom && p < i-bd.off {
				*aij(i, p) = 0
			}
		}
	}
	ldb, ldc := n+3, n+1
	b, c := randVec(r, k*ldb+1), randVec(r, m*ldc)
	before := append([]float32(nil), c...)
	alpha := float32(0.7)
	attnGemm(m, n, k, alpha, a, ars, acs, b, ldb, c, ldc, acc, bd)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			if bd.kind == bandCols && j > i+bd.off {
				continue
			}
			var want float64
			for p := 0; p < k; p++ {
				want += float64(*aij(i, p)) * float64(b[p*ldb+j])
			}
			want *= float64(alpha)
			if acc {
				want += float64(before[i*ldc+j])
			}
			if got := c[i*ldc+j]; math.Abs(float64(got)-want) > 1e-5*(1+math.Abs(want)) {
				t.Fatalf("%d×%d×%d trans %v band %v acc %v: C[%d,%d] = %g, want %g", m, n, k, trans, bd, acc, i, j, got, want)
			}
		}
		for j := n; j < ldc && i*ldc+j < len(c); j++ {
			if c[i*ldc+j] != before[i*ldc+j] {
				t.Fatalf("%d×%d×%d: wrote past the row at C[%d,%d]", m, n, k, i, j)
			}
		}
	}
}

func randVec(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// BenchmarkAttnProducts: one (sentence, head) score product of the
// benchmark model, 32×32×64, through attnGemm and through the BLAS.
func BenchmarkAttnProducts(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	q, k, s := randVec(r, 32*64), randVec(r, 32*64), make([]float32, 32*32)
	flop := 2.0 * 32 * 32 * 64
	b.Run("kernel", func(b *testing.B) {
		for i := 0; i < b.N; i++ { // S = Q·Kᵀ with Kᵀ read in place
			attnGemm(32, 32, 64, 1, q, 64, 1, k, 32, s, 32, false, band{})
		}
		b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	b.Run("blas", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			gemm1(false, true, 32, 32, 64, 1, q, 64, k, 64, 0, s, 32)
		}
		b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
}
