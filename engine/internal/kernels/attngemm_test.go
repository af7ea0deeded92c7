package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// AttnProduct against a float64 loop, over widths that exercise the 32- and
// 8-column tiles and the Go tail, odd row counts, transposed A, alpha and
// accumulation, and the causal bands (entries a band skips must be ones
// the mask makes zero or unused).
func TestAttnGemmMatchesLoop(t *testing.T) {
	defer func(h bool) { attnTiles = h }(attnTiles)
	defer func(h bool) { attnTiles512 = h }(attnTiles512)
	for _, asm := range []bool{cpu.Detected.AVX2FMA, false} {
		attnTiles = asm
		for _, wide := range []bool{cpu.Detected.AVX512F32, false} {
			attnTiles512 = wide
			testAttnGemmShapes(t)
		}
	}
}

// The AVX-512 6×32 tile gives the AVX2 tiles' bits on every shape, band
// and transposition (the kernel a CPU has must not change a training).
func TestAttnGemmTiles512SameBits(t *testing.T) {
	if !cpu.Detected.AVX512F32 {
		t.Skip("no AVX-512 here: attention's products run the AVX2 tiles")
	}
	defer func(h bool) { attnTiles512 = h }(attnTiles512)
	defer func(h bool) { attnTiles = h }(attnTiles)
	attnTiles = true
	r := rand.New(rand.NewPCG(3, 4))
	for _, sh := range [][3]int{{6, 32, 32}, {13, 40, 29}, {32, 32, 32}, {29, 64, 24}, {45, 48, 32}, {7, 96, 5}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, trans := range []bool{false, true} {
			for _, kind := range []BandKind{BandNone, BandCols, BandInner, BandInnerFrom} {
				ars, acs := k, 1
				if trans {
					ars, acs = 1, m
				}
				a, b, c0 := randF32(r, m*k), randF32(r, k*n), randF32(r, m*n)
				bd := Band{Kind: kind, Off: max(0, k-m)}
				var out [2][]float32
				for i, on := range []bool{true, false} {
					attnTiles512 = on
					out[i] = append([]float32(nil), c0...)
					AttnProduct(m, n, k, 0.3, a, ars, acs, b, n, out[i], n, true, bd)
				}
				for j := range out[0] {
					if kind == BandCols && j%n > j/n+bd.Off {
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
			for _, kind := range []BandKind{BandNone, BandCols, BandInner, BandInnerFrom} {
				for _, acc := range []bool{false, true} {
					checkAttnGemmCase(t, r, m, n, k, trans, Band{Kind: kind, Off: r.IntN(3) - 1 + max(0, k-m)}, acc)
				}
			}
		}
	}
}

func checkAttnGemmCase(t *testing.T, r *rand.Rand, m, n, k int, trans bool, bd Band, acc bool) {
	t.Helper()
	ars, acs := k+2, 1 // A is m×k with padded rows
	if trans {
		ars, acs = 1, m+1 // A is stored k×m (plus a column)
	}
	a := randF32(r, m*(k+2)+k*(m+1))
	aij := func(i, p int) *float32 { return &a[i*ars+p*acs] }
	for i := 0; i < m; i++ { // zero what the band says is zero
		for p := 0; p < k; p++ {
			if bd.Kind == BandInner && p > i+bd.Off || bd.Kind == BandInnerFrom && p < i-bd.Off {
				*aij(i, p) = 0
			}
		}
	}
	ldb, ldc := n+3, n+1
	b, c := randF32(r, k*ldb+1), randF32(r, m*ldc)
	before := append([]float32(nil), c...)
	alpha := float32(0.7)
	AttnProduct(m, n, k, alpha, a, ars, acs, b, ldb, c, ldc, acc, bd)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			if bd.Kind == BandCols && j > i+bd.Off {
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
