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
	defer func(h bool) { attnTiles512 = h }(attnTiles512)
	for _, asm := range []bool{attnTiles, false} {
		attnTiles = asm
		for _, wide := range []bool{attnTiles512, false} {
			attnTiles512 = wide
			testAttnGemmShapes(t)
		}
	}
}

// The AVX-512 6×32 tile gives the AVX2 tiles' bits on every shape, band
// and transposition (the kernel a CPU has must not change a training).
func TestAttnGemmTiles512SameBits(t *testing.T) {
	if !attnTiles512 {
		t.Skip("no AVX-512 here: attention's products run the AVX2 tiles")
	}
	defer func() { attnTiles512 = true }()
	r := rand.New(rand.NewPCG(3, 4))
	for _, sh := range [][3]int{{6, 32, 32}, {13, 40, 29}, {32, 32, 32}, {29, 64, 24}, {45, 48, 32}, {7, 96, 5}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, trans := range []bool{false, true} {
			for _, kind := range []bandKind{bandNone, bandCols, bandInner, bandInnerFrom} {
				ars, acs := k, 1
				if trans {
					ars, acs = 1, m
				}
				a, b, c0 := randVec(r, m*k), randVec(r, k*n), randVec(r, m*n)
				bd := band{kind, max(0, k-m)}
				var out [2][]float32
				for i, on := range []bool{true, false} {
					attnTiles512 = on
					out[i] = append([]float32(nil), c0...)
					attnGemm(m, n, k, 0.3, a, ars, acs, b, n, out[i], n, true, bd)
				}
				for j := range out[0] {
					if kind == bandCols && j%n > j/n+bd.off {
						continue // a column the band leaves holding anything
					}
					if math.Float32bits(out[0][j]) != math.Float32bits(out[1][j]) {
						t.Fatalf("%d×%d×%d trans %v band %v: C[%d] = %v with AVX-512, %v with AVX2", m, n, k, trans, bd, j, out[0][j], out[1][j])
					}
				}
			}
		}
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
