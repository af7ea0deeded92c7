//go:build !purego

package kernels

// TileF32AVX2 is in sgemm_packed_amd64.s.
//
//go:noescape
func TileF32AVX2(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)

// TileF32AVX512 is in sgemm_packed_avx512_amd64.s.
//
//go:noescape
func TileF32AVX512(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)

// F32AVX2 is the AVX2 kernel (6×16 tiles).
var F32AVX2 = F32TileKernel{Name: F32AVX2Name, Tile: func(a []float32, lda int, w []float32, k int,
	out []float32, ldo int, bias []float32, tiles int) {
	bp := CheckTileArgs(a, lda, w, k, out, ldo, bias, tiles, 1)
	TileF32AVX2(&a[0], lda, &w[0], k, &out[0], ldo, bp, tiles)
}}

// TileF32AVX512Wide is in sgemm_packed_wide_avx512_amd64.s.
//
//go:noescape
func TileF32AVX512Wide(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)

// F32AVX512 is the AVX-512 kernel (12×32 and 12×16 tiles), with the
// AVX2 one's bits.
var F32AVX512 = F32TileKernel{Name: "avx512 (12x32 and 12x16 tiles, packed weights)", Tile: func(a []float32, lda int, w []float32, k int,
	out []float32, ldo int, bias []float32, tiles int) {
	bp := CheckTileArgs(a, lda, w, k, out, ldo, bias, tiles, 1)
	TileF32AVX512(&a[0], lda, &w[0], k, &out[0], ldo, bp, tiles)
}, Wide: func(a []float32, lda int, w []float32, k int, out []float32, ldo int, bias []float32, tiles int) {
	bp := CheckTileArgs(a, lda, w, k, out, ldo, bias, tiles, 2)
	TileF32AVX512Wide(&a[0], lda, &w[0], k, &out[0], ldo, bp, tiles)
}, GradW: &GradWAVX512}

// CheckTileArgs checks that the slices of an assembly tile kernel's call
// over panels panels (1, or 2 for a wide kernel) cover what it touches, and
// returns the bias pointer it takes (nil: accumulate into out). The kernels
// read 6·tiles rows of k values and the panels and write 6·tiles rows of
// 16·panels (the AVX-512 ones take them 12 at a time, but never past the
// last tile); a bad call would corrupt memory, not panic.
func CheckTileArgs(a []float32, lda int, w []float32, k int, out []float32, ldo int, bias []float32, tiles, panels int) *float32 {
	r, cols := F32TileRows*tiles, panels*F32PanelCols
	_ = a[(r-1)*lda+k-1]
	_ = w[k*cols-1]
	_ = out[(r-1)*ldo+cols-1]
	if bias == nil {
		return nil
	}
	_ = bias[cols-1]
	return &bias[0]
}

// f32Kernels lists the kernels the chosen instruction set runs, best first.
func f32Kernels() []F32TileKernel {
	var ks []F32TileKernel
	if avx512 {
		ks = append(ks, F32AVX512)
	}
	if avx2 {
		ks = append(ks, F32AVX2)
	}
	return append(ks, F32Go)
}
