package engine

// tileF32AVX2 is in sgemm_packed_amd64.s.
//
//go:noescape
func tileF32AVX2(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)

var avx2F32Kernel = f32TileKernel{"avx2+fma (6x16 tile, packed weights)", func(a []float32, lda int, w []float32, k int,
	out []float32, ldo int, bias []float32, tiles int) {
	// the assembly reads 6·tiles rows of k values and the panel and
	// writes 6·tiles rows of 16: check the slices cover them (a bad call
	// would corrupt memory, not panic)
	r := f32TileRows * tiles
	_ = a[(r-1)*lda+k-1]
	_ = w[k*f32PanelCols-1]
	_ = out[(r-1)*ldo+f32PanelCols-1]
	var bp *float32 // nil: accumulate into out
	if bias != nil {
		_ = bias[f32PanelCols-1]
		bp = &bias[0]
	}
	tileF32AVX2(&a[0], lda, &w[0], k, &out[0], ldo, bp, tiles)
}}

func init() {
	if haveAVX2FMA {
		f32Kernels = append(f32Kernels, avx2F32Kernel)
	}
	f32Kernels = append(f32Kernels, goF32Kernel)
	chooseF32Kernel()
}
