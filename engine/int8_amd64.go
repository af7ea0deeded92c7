package engine

import (
	"os"
)

// tileInt8AVX2 is in int8_amd64.s.
//
//go:noescape
func tileInt8AVX2(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)

var avx2Int8Kernel = int8TileKernel{"avx2 (vpmaddubsw u8·s7, int32 accumulation)", func(a []uint8, lda int, w []int8, k4 int,
	out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	// the assembly reads 4·tiles rows of 4·k4 bytes, 16 columns and
	// writes 4·tiles rows of 16: check the slices cover them (a bad call
	// would corrupt memory, not panic)
	r := tileRows * tiles
	_ = a[(r-1)*lda+4*k4-1]
	_ = w[k4*panelCols*4-1]
	_ = out[(r-1)*ldo+panelCols-1]
	_, _, _, _ = comp[panelCols-1], scale[panelCols-1], sa[r-1], bias[panelCols-1]
	tileInt8AVX2(&a[0], lda, &w[0], k4, &out[0], ldo, &comp[0], &scale[0], &sa[0], &bias[0], tiles)
}}

// absMaxAVX2 and quantizeAVX2 are in int8_amd64.s.
//
//go:noescape
func absMaxAVX2(x *float32, n int) float32

//go:noescape
func quantizeAVX2(x *float32, n int, inv float32, dst *uint8)

func init() {
	if haveAVX2FMA {
		absMaxFast = func(x []float32) float32 { return absMaxAVX2(&x[0], len(x)) }
		quantizeFast = func(dst []uint8, x []float32, inv float32) { quantizeAVX2(&x[0], len(x), inv, &dst[0]) }
	}

	if haveAVX2FMA {
		int8Kernels = append(int8Kernels, avx2Int8Kernel)
	}
	int8Kernels = append(int8Kernels, goInt8Kernel)
	int8Kernel = int8Kernels[0]
	if os.Getenv("STRATA_INT8") == "go" {
		int8Kernel = goInt8Kernel
	}
}
