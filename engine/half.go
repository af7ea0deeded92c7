package engine

import "github.com/strata-nmt/strata/engine/internal/kernels"

// Half-precision (IEEE 754 binary16) storage for decoder self-attention
// caches. The cache is the largest item of decoding memory (6 layers × 160
// beam rows × 60 positions × K|V of 256 floats: 118 MB in float32 for one
// batch of the decoding benchmark), and attention only reads it, so it can
// be stored as halves and widened as it is read, as CTranslate2 does with
// float16 models: half the memory and half the bytes read per step, at
// 11 bits of mantissa (relative error ≤ 2^-11 per key and value element).
// Arithmetic stays float32. The conversions and the kernels that read the
// cache are in engine/internal/kernels (half.go).

// HalfCache reports whether models that start decoding on g keep their
// self-attention caches as halves (model.Incremental): a float16 cache in
// the graph's ComputeType.
func (g *Graph) HalfCache() bool { return g.Compute().Cache == FormatF16 }

// HalfFromFloat32 rounds f to the nearest binary16 (ties to even): values
// beyond the largest half (65504) become ±Inf, values below the smallest
// subnormal (2^-24) become ±0 or round to it, NaN stays NaN.
func HalfFromFloat32(f float32) uint16 { return kernels.HalfFromFloat32(f) }

// Float32FromHalf widens a binary16 value (exact).
func Float32FromHalf(h uint16) float32 { return kernels.Float32FromHalf(h) }

// StoreRowsHalf is StoreRows into a cache of halves.
func (g *Graph) StoreRowsHalf(dst []uint16, ld, first int, src Cols, width int) {
	n, c := storeRowsShape("StoreRowsHalf", len(dst), ld, first, src, width)
	g.be.StoreRowsHalf(dst, ld, first, src.T.Data[src.Col:], c, n, width)
}

// StoreRowsHalf on the CPU: each row narrowed by halves (F16C where the
// CPU has it).
func (c cpuBackend) StoreRowsHalf(dst []uint16, ld, first int, src []float32, lds, n, width int) {
	for i := 0; i < n; i++ {
		halves(dst[(first+i)*ld:(first+i)*ld+width], src[i*lds:i*lds+width])
	}
}
