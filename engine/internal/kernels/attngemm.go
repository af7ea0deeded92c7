package kernels

import "fmt"

// Attention's small products.
//
// Each (sentence, head) of attention multiplies matrices of a few dozen
// rows and columns (32×32×64 in the benchmark model). Through OpenBLAS every
// such product pays a call across purego and the library's packing of both
// operands, which cost as much as the arithmetic at this size (18 GFLOP/s,
// a fraction of one core's peak), and a step makes tens of thousands of
// them. No BLAS on this machine offers a batched strided product, so the
// products are written here: register tiles of 6 rows × 16 columns (6 × 32
// on AVX-512, attngemm_avx512_amd64.s; where no causal band cuts the
// columns row by row) and of 2 rows × 32 (or 8)
// columns in AVX2/FMA assembly (attngemm_amd64.s) reading the operands in place
// through row and column strides, so that transposed operands need no
// copies either; a pure-Go loop does the same elsewhere and for the last
// columns of a row when the width is not a multiple of 8.
//
// Masks are used inside: a band limits, per pair of rows, the columns or
// the inner range to what the causal mask leaves, so masked blocks are
// neither computed nor stored.

// BandKind says which part of a product a causal mask makes zero or unused.
type BandKind uint8

const (
	BandNone BandKind = iota
	// BandCols: row i needs only columns j <= i+off (scores, dP).
	BandCols
	// BandInner: row i of A is zero past column i+off (P·V, dS·K).
	BandInner
	// BandInnerFrom: A(i,p) is zero for p < i-off (Pᵀ·dC, dSᵀ·Q).
	BandInnerFrom
)

// attnTiles: the assembly tiles are used (tests turn them off to check the
// Go path); attnTiles512: the 6-row tiles are 32 columns of AVX-512 where
// the CPU has it (the same bits as two of the 16-column AVX2 tiles).
var (
	attnTiles    = avx2
	attnTiles512 = avx512
)

// Band is the part of a product a causal mask leaves: Kind says which
// (BandNone: all of it), Off the diagonal's offset.
type Band struct {
	Kind BandKind
	Off  int
}

// AttnProduct computes C = alpha·A·B (+ C when acc) for C m×n, B k×n with
// rows ldb apart and unit column stride, C with rows ldc apart, and
// A(i,p) = a[i·ars + p·acs]. With bd.Kind == BandCols the columns a row
// does not need are left as they were (they may hold anything).
func AttnProduct(m, n, k int, alpha float32, a []float32, ars, acs int, b []float32, ldb int,
	c []float32, ldc int, acc bool, bd Band) {
	if m == 0 || n == 0 {
		return
	}
	checkAttnGemm(m, n, k, a, ars, acs, b, ldb, c, ldc)
	i := 0
	if attnTiles && n >= 16 {
		// whole columns in 6-row tiles first; the pairs below then
		// start where the tiles stopped
		for ; i+6 <= m; i += 6 {
			done := attnRows6(i, n&^15, k, alpha, a, ars, acs, b, ldb, c, ldc, acc, bd)
			for r := i; r < i+6; r += 2 {
				attnPair(r, done, m, n, k, alpha, a, ars, acs, b, ldb, c, ldc, acc, bd)
			}
		}
	}
	for ; i < m; i += 2 {
		attnPair(i, 0, m, n, k, alpha, a, ars, acs, b, ldb, c, ldc, acc, bd)
	}
}

// attnRows6 is rows [i, i+6) of AttnProduct over columns [0, cols) (a
// multiple of 16), in 6×32 tiles on AVX-512 and 6×16 tiles for the rest,
// and returns the columns it did. The inner range is the six rows' union:
// the terms it adds for a row beyond its own band multiply zeros of A.
// Under a causal column band it stops at the whole 16-column tiles the
// block's last row needs: the columns it computes past an earlier row's
// band are ones that row may leave holding anything.
func attnRows6(i, cols, k int, alpha float32, a []float32, ars, acs int, b []float32, ldb int,
	c []float32, ldc int, acc bool, bd Band) int {
	lo, hi := 0, k
	switch bd.Kind {
	case BandCols:
		cols = max(0, min(cols, (i+6+bd.Off+15)&^15))
	case BandInner:
		hi = min(k, i+5+bd.Off+1)
	case BandInnerFrom:
		lo = max(0, i-bd.Off)
	}
	kk := hi - lo
	if kk <= 0 { // nothing to add: C = 0 (or stays)
		if !acc {
			for r := i; r < i+6; r++ {
				clear(c[r*ldc : r*ldc+cols])
			}
		}
		return cols
	}
	j := 0
	if attnTiles512 {
		for ; j+32 <= cols; j += 32 {
			AttnTile6x32AVX512(kk, &a[i*ars+lo*acs], ars, acs, &b[lo*ldb+j], ldb, &c[i*ldc+j], ldc, alpha, acc)
		}
	}
	for ; j < cols; j += 16 {
		AttnTile6x16(kk, &a[i*ars+lo*acs], ars, acs, &b[lo*ldb+j], ldb, &c[i*ldc+j], ldc, alpha, acc)
	}
	return cols
}

// attnPair is rows i and i+1 (or i alone, the last of an odd count) of
// AttnProduct from column j0 on.
func attnPair(i, j0, m, n, k int, alpha float32, a []float32, ars, acs int, b []float32, ldb int,
	c []float32, ldc int, acc bool, bd Band) {
	var spare [32]float32 // second output row of a lone last row
	nn, lo, hi := n, 0, k
	last := min(i+1, m-1) // the pair's second row (or the lone row)
	switch bd.Kind {
	case BandCols: // rounded up to whole tiles: the extra columns are masked anyway
		nn = min(n, (last+bd.Off+1+7)&^7)
	case BandInner:
		hi = min(k, last+bd.Off+1)
	case BandInnerFrom:
		lo = max(0, i-bd.Off)
	}
	if nn <= j0 {
		return
	}
	kk := hi - lo
	if kk <= 0 { // nothing to add: C = 0 (or stays)
		if !acc {
			clear(c[i*ldc+j0 : i*ldc+nn])
			clear(c[last*ldc+j0 : last*ldc+nn])
		}
		return
	}
	a0, a1 := i*ars+lo*acs, last*ars+lo*acs
	c0, c1 := c[i*ldc:], c[last*ldc:]
	j := j0
	if attnTiles {
		for ; j+32 <= nn; j += 32 {
			d1 := &c1[j]
			if last == i {
				d1 = &spare[0]
			}
			AttnTile2x32(kk, &a[a0], &a[a1], acs, &b[lo*ldb+j], ldb, &c0[j], d1, alpha, acc)
		}
		for ; j+8 <= nn; j += 8 {
			d1 := &c1[j]
			if last == i {
				d1 = &spare[0]
			}
			AttnTile2x8(kk, &a[a0], &a[a1], acs, &b[lo*ldb+j], ldb, &c0[j], d1, alpha, acc)
		}
	}
	attnRowGo(kk, a[a0:], acs, b[lo*ldb:], ldb, c0, j, nn, alpha, acc)
	if last != i {
		attnRowGo(kk, a[a1:], acs, b[lo*ldb:], ldb, c1, j, nn, alpha, acc)
	}
}

// attnRowGo is one row of AttnProduct over columns [j0, j1), in Go.
func attnRowGo(k int, a []float32, acs int, b []float32, ldb int, c []float32, j0, j1 int, alpha float32, acc bool) {
	for j := j0; j < j1; j++ {
		var s float32
		for p := 0; p < k; p++ {
			s += a[p*acs] * b[p*ldb+j]
		}
		s *= alpha
		if acc {
			s += c[j]
		}
		c[j] = s
	}
}

// checkAttnGemm panics unless every element AttnProduct may touch lies in the
// slices: the assembly reads and writes through raw pointers.
func checkAttnGemm(m, n, k int, a []float32, ars, acs int, b []float32, ldb int, c []float32, ldc int) {
	if (m-1)*ars+(k-1)*acs >= len(a) && k > 0 || (k-1)*ldb+n > len(b) && k > 0 || (m-1)*ldc+n > len(c) {
		panic(fmt.Sprintf("kernels: attention product %d×%d×%d outside its operands (%d, %d, %d floats)",
			m, n, k, len(a), len(b), len(c)))
	}
}
