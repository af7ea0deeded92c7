//go:build !purego

package engine

// Declarations of the assembly kernels (expsum_amd64.s, rows_amd64.s)
// (guarded by isa.go); asm_other.go stubs them elsewhere.

// expSumsAVX2 is in expsum_amd64.s.
//
//go:noescape
func expSumsAVX2(dst, x *float32, n int, shift float32, acc *[16]float64)

// expSumsAVX512 is expSumsAVX2 for n a multiple of 16 on AVX-512, to the
// bit (expsum_amd64.s).
//
//go:noescape
func expSumsAVX512(dst, x *float32, n int, shift float32, acc *[16]float64)

// dotRowsAVX2 and axpyRowsAVX2 are in rows_amd64.s.
//
//go:noescape
func dotRowsAVX2(q *float32, dh int, base *float32, idx *int32, n int, stride int, out *float32, scale float32)

//go:noescape
func axpyRowsAVX2(out *float32, dh int, base *float32, idx *int32, p *float32, n int, stride int)

// sum4AVX2, sqdev4AVX2, lnSums4AVX2 and lnDx4AVX2 are in norm_amd64.s.
//
//go:noescape
func sum4AVX2(x *float32, n int, out *[4]float64)

//go:noescape
func sqdev4AVX2(x *float32, n int, mean float64, out *[4]float64)

//go:noescape
func lnSums4AVX2(gd, h *float32, n int, out *[8]float64)

//go:noescape
func lnDx4AVX2(dx, gd, h *float32, n int, m1, m2, rs float64)

//go:noescape
func lnBackRowAVX2(x, dy, h, accG, accB *float32, n int, m, rs float32)

//go:noescape
func normAffineAVX2(y, x, gain, bias *float32, n int, m, rs float32)

// dropMaskAVX2, addMaskedAVX2 and accMaskedAVX2 are in dropout_amd64.s.
//
//go:noescape
func dropMaskAVX2(mask *uint32, words int, z uint64, threshold uint32)

//go:noescape
func addMaskedAVX2(y, x, f *float32, mask *uint32, words int, scale float32)

//go:noescape
func accMaskedAVX2(dst, src *float32, mask *uint32, words int, scale float32)
