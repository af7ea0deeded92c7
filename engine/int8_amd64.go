//go:build !purego

package engine

import (
	"fmt"

	"github.com/strata-nmt/strata/engine/internal/cpu"
	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// tileInt8AVX2 and tileInt8VNNI are in int8_amd64.s.
//
//go:noescape
func tileInt8AVX2(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)

//go:noescape
func tileInt8AVX2Pairs(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)

//go:noescape
func tileInt8VNNI(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)

var vnniInt8Kernel = int8TileKernel{needs: &haveVNNI, name: "avx512-vnni (vpdpbusd u8·s7, int32 accumulation, ymm)", tile: func(a []uint8, lda int, w []int8, k4 int,
	out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	checkTile(a, lda, w, k4, out, ldo, comp, scale, sa, bias, tiles)
	tileInt8VNNI(&a[0], lda, &w[0], k4, &out[0], ldo, &comp[0], &scale[0], &sa[0], &bias[0], tiles)
}}

var avx2Int8Kernel = int8TileKernel{needs: &haveAVX2FMA, name: "avx2 (vpmaddubsw u8·s7, int32 accumulation)", tile: func(a []uint8, lda int, w []int8, k4 int,
	out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	checkTile(a, lda, w, k4, out, ldo, comp, scale, sa, bias, tiles)
	tileInt8AVX2(&a[0], lda, &w[0], k4, &out[0], ldo, &comp[0], &scale[0], &sa[0], &bias[0], tiles)
}, pairs: &avx2PairsInt8Kernel}

// avx2PairsInt8Kernel is the AVX2 kernel's form for 7-bit activations
// (int8KernelFor); the caller guarantees activations in [1, 127].
var avx2PairsInt8Kernel = int8TileKernel{name: "avx2 pairs (vpmaddubsw u7·s7, two groups per int16 sum, int32 accumulation)", tile: func(a []uint8, lda int, w []int8, k4 int,
	out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	if k4%2 != 0 {
		panic(fmt.Sprintf("engine: the int8 pairs kernel needs an even group count, got %d", k4))
	}
	checkTile(a, lda, w, k4, out, ldo, comp, scale, sa, bias, tiles)
	tileInt8AVX2Pairs(&a[0], lda, &w[0], k4, &out[0], ldo, &comp[0], &scale[0], &sa[0], &bias[0], tiles)
}}

// checkTile panics unless the slices cover what an assembly tile kernel
// touches: it reads 4·tiles rows of 4·k4 bytes, 16 columns and writes
// 4·tiles rows of 16, and a bad call would corrupt memory, not panic.
func checkTile(a []uint8, lda int, w []int8, k4 int, out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	r := tileRows * tiles
	_ = a[(r-1)*lda+4*k4-1]
	_ = w[k4*panelCols*4-1]
	_ = out[(r-1)*ldo+panelCols-1]
	_, _, _, _ = comp[panelCols-1], scale[panelCols-1], sa[r-1], bias[panelCols-1]
}

// absMaxAVX2 and quantizeAVX2 are in int8_amd64.s.
//
//go:noescape
func absMaxAVX2(x *float32, n int) float32

//go:noescape
func quantizeAVX2(x *float32, n int, inv float32, shift uint8, dst *uint8)

func init() {
	if haveAVX2FMA {
		absMaxFast = func(x []float32) float32 { return absMaxAVX2(&x[0], len(x)) }
		quantizeFast = func(dst []uint8, x []float32, inv float32, shift uint8) {
			quantizeAVX2(&x[0], len(x), inv, shift, &dst[0])
		}
	}

	// the list holds what the CPU can run, so that the tests compare every
	// kernel whatever STRATA_ISA chose; chooseInt8Kernel keeps to the
	// chosen set
	if cpu.Detected.VNNI {
		int8Kernels = append(int8Kernels, vnniInt8Kernel)
	}
	if cpu.Detected.AVX2FMA {
		int8Kernels = append(int8Kernels, avx2Int8Kernel)
	}
	int8Kernels = append(int8Kernels, goInt8Kernel)
	int8Kernel = chooseInt8Kernel(kernels.LegacyISAEnv("STRATA_INT8", "go", "avx2", "avx512-vnni"))
}
