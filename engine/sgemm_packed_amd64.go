//go:build !purego

package engine

// tileF32AVX2 is in sgemm_packed_amd64.s.
//
//go:noescape
func tileF32AVX2(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)

// tileF32AVX512 is in sgemm_packed_avx512_amd64.s.
//
//go:noescape
func tileF32AVX512(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)

var avx2F32Kernel = f32TileKernel{name: avx2F32KernelName, tile: func(a []float32, lda int, w []float32, k int,
	out []float32, ldo int, bias []float32, tiles int) {
	bp := checkTileArgs(a, lda, w, k, out, ldo, bias, tiles, 1)
	tileF32AVX2(&a[0], lda, &w[0], k, &out[0], ldo, bp, tiles)
}}

// tileF32AVX512Wide is in sgemm_packed_wide_avx512_amd64.s.
//
//go:noescape
func tileF32AVX512Wide(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)

var avx512F32Kernel = f32TileKernel{name: "avx512 (12x32 and 12x16 tiles, packed weights)", tile: func(a []float32, lda int, w []float32, k int,
	out []float32, ldo int, bias []float32, tiles int) {
	bp := checkTileArgs(a, lda, w, k, out, ldo, bias, tiles, 1)
	tileF32AVX512(&a[0], lda, &w[0], k, &out[0], ldo, bp, tiles)
}, wide: func(a []float32, lda int, w []float32, k int, out []float32, ldo int, bias []float32, tiles int) {
	bp := checkTileArgs(a, lda, w, k, out, ldo, bias, tiles, 2)
	tileF32AVX512Wide(&a[0], lda, &w[0], k, &out[0], ldo, bp, tiles)
}, gradW: &gradWAVX512}

// gradW12AVX512 and gradW4AVX512 are in gradw_avx512_amd64.s.
//
//go:noescape
func gradW12AVX512(dy *float32, ldy int, x *float32, ldx int, n int, c *float32, ldc int, panels int)

//go:noescape
func gradW4AVX512(dy *float32, ldy int, x *float32, ldx int, n int, c *float32, ldc int, panels int)

var gradWAVX512 = gradWKernel{
	name: "avx512 (12x32 tile, dY and X in place)",
	rows12: func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int) {
		checkGradWArgs(dy, ldy, x, ldx, n, c, ldc, panels, gradWRows)
		gradW12AVX512(&dy[0], ldy, &x[0], ldx, n, &c[0], ldc, panels)
	},
	rows4: func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int) {
		checkGradWArgs(dy, ldy, x, ldx, n, c, ldc, panels, gradWRowsTail)
		gradW4AVX512(&dy[0], ldy, &x[0], ldx, n, &c[0], ldc, panels)
	},
}

// checkTileArgs checks that the slices of an assembly tile kernel's call
// over panels panels (1, or 2 for a wide kernel) cover what it touches, and
// returns the bias pointer it takes (nil: accumulate into out). The kernels
// read 6·tiles rows of k values and the panels and write 6·tiles rows of
// 16·panels (the AVX-512 ones take them 12 at a time, but never past the
// last tile); a bad call would corrupt memory, not panic.
func checkTileArgs(a []float32, lda int, w []float32, k int, out []float32, ldo int, bias []float32, tiles, panels int) *float32 {
	r, cols := f32TileRows*tiles, panels*f32PanelCols
	_ = a[(r-1)*lda+k-1]
	_ = w[k*cols-1]
	_ = out[(r-1)*ldo+cols-1]
	if bias == nil {
		return nil
	}
	_ = bias[cols-1]
	return &bias[0]
}

func init() {
	// best first: chooseF32Kernel takes the first, STRATA_SGEMM=avx2 the
	// AVX2 one
	if haveAVX512F32 {
		f32Kernels = append(f32Kernels, avx512F32Kernel)
	}
	if haveAVX2FMA {
		f32Kernels = append(f32Kernels, avx2F32Kernel)
	}
	f32Kernels = append(f32Kernels, goF32Kernel)
	chooseF32Kernel()
}
