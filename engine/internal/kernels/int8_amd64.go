//go:build !purego

package kernels

import (
	"fmt"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// TileInt8AVX2 and TileInt8VNNI are in int8_amd64.s.
//
//go:noescape
func TileInt8AVX2(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)

//go:noescape
func TileInt8AVX2Pairs(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)

//go:noescape
func TileInt8VNNI(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)

// Int8VNNI is the AVX512-VNNI kernel (vpdpbusd).
var Int8VNNI = Int8TileKernel{Needs: &vnni, Name: "avx512-vnni (vpdpbusd u8·s7, int32 accumulation, ymm)", Tile: func(a []uint8, lda int, w []int8, k4 int,
	out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	CheckInt8TileArgs(a, lda, w, k4, out, ldo, comp, scale, sa, bias, tiles)
	TileInt8VNNI(&a[0], lda, &w[0], k4, &out[0], ldo, &comp[0], &scale[0], &sa[0], &bias[0], tiles)
}}

// Int8AVX2 is the AVX2 kernel (vpmaddubsw).
var Int8AVX2 = Int8TileKernel{Needs: &avx2, Name: "avx2 (vpmaddubsw u8·s7, int32 accumulation)", Tile: func(a []uint8, lda int, w []int8, k4 int,
	out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	CheckInt8TileArgs(a, lda, w, k4, out, ldo, comp, scale, sa, bias, tiles)
	TileInt8AVX2(&a[0], lda, &w[0], k4, &out[0], ldo, &comp[0], &scale[0], &sa[0], &bias[0], tiles)
}, Pairs: &Int8AVX2Pairs}

// Int8AVX2Pairs is the AVX2 kernel's form for 7-bit activations
// (int8KernelFor); the caller guarantees activations in [1, 127].
var Int8AVX2Pairs = Int8TileKernel{Name: "avx2 pairs (vpmaddubsw u7·s7, two groups per int16 sum, int32 accumulation)", Tile: func(a []uint8, lda int, w []int8, k4 int,
	out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	if k4%2 != 0 {
		panic(fmt.Sprintf("kernels: the int8 pairs kernel needs an even group count, got %d", k4))
	}
	CheckInt8TileArgs(a, lda, w, k4, out, ldo, comp, scale, sa, bias, tiles)
	TileInt8AVX2Pairs(&a[0], lda, &w[0], k4, &out[0], ldo, &comp[0], &scale[0], &sa[0], &bias[0], tiles)
}}

// CheckInt8TileArgs panics unless the slices cover what an assembly tile kernel
// touches: it reads 4·tiles rows of 4·k4 bytes, 16 columns and writes
// 4·tiles rows of 16, and a bad call would corrupt memory, not panic.
func CheckInt8TileArgs(a []uint8, lda int, w []int8, k4 int, out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	r := Int8TileRows * tiles
	_ = a[(r-1)*lda+4*k4-1]
	_ = w[k4*Int8PanelCols*4-1]
	_ = out[(r-1)*ldo+Int8PanelCols-1]
	_, _, _, _ = comp[Int8PanelCols-1], scale[Int8PanelCols-1], sa[r-1], bias[Int8PanelCols-1]
}

// AbsMaxAVX2 and QuantizeAVX2 are in int8_amd64.s.
//
//go:noescape
func AbsMaxAVX2(x *float32, n int) float32

//go:noescape
func QuantizeAVX2(x *float32, n int, inv float32, shift uint8, dst *uint8)

// int8Kernels lists what the CPU can run (cpu.Detected), best first.
func int8Kernels() []Int8TileKernel {
	var ks []Int8TileKernel
	if cpu.Detected.VNNI {
		ks = append(ks, Int8VNNI)
	}
	if cpu.Detected.AVX2FMA {
		ks = append(ks, Int8AVX2)
	}
	return append(ks, Int8Go)
}

// quantizeKernels are the AVX2 quantizer's parts where the chosen set has
// AVX2.
func quantizeKernels() (func(x []float32) float32, func(dst []uint8, x []float32, inv float32, shift uint8)) {
	if !avx2 {
		return nil, nil
	}
	return func(x []float32) float32 { return AbsMaxAVX2(&x[0], len(x)) },
		func(dst []uint8, x []float32, inv float32, shift uint8) {
			QuantizeAVX2(&x[0], len(x), inv, shift, &dst[0])
		}
}
