package engine

import "github.com/strata-nmt/strata/engine/internal/kernels"

// The engine's names for the row and vector kernels of
// engine/internal/kernels, which picks each one's path (assembly or its
// pure-Go reference) from the instruction set chosen at start-up. The ops
// call these; each is a direct call, inlined.

// axpy: dst += a·x (kernels.Axpy).
func axpy(dst, x []float32, a float32) { kernels.Axpy(dst, x, a) }

// dot is the inner product of a and b[:len(a)] (kernels.Dot).
func dot(a, b []float32) float32 { return kernels.Dot(a, b) }

// rowMax is the largest of xs as LogSoftmax's loop finds it (kernels.RowMax).
func rowMax(xs []float32) float32 { return kernels.RowMax(xs) }

// subScalar subtracts c from every element of xs (kernels.SubScalar).
func subScalar(xs []float32, c float32) { kernels.SubScalar(xs, c) }

// scaleTo sets dst[j] = src[j]·a (kernels.ScaleTo).
func scaleTo(dst, src []float32, a float32) { kernels.ScaleTo(dst, src, a) }

// mulSub sets every x of xs to x·mul - sub (kernels.MulSub).
func mulSub(xs []float32, mul, sub float32) { kernels.MulSub(xs, mul, sub) }

// relu is LinearReLU's ReLU in place (kernels.Relu).
func relu(xs []float32) { kernels.Relu(xs) }

// biasRelu sets xs[i] = ReLU(xs[i] + bias[i]) (kernels.BiasRelu).
func biasRelu(xs, bias []float32) { kernels.BiasRelu(xs, bias) }

// reluGrad is ReLU's backward in place (kernels.ReluGrad).
func reluGrad(ds, ys []float32) { kernels.ReluGrad(ds, ys) }

// halves narrows src into dst (kernels.Halves).
func halves(dst []uint16, src []float32) { kernels.Halves(dst, src) }

// gatherScores and gatherSum are decoding attention's gathered products
// over a float32 cache (kernels.GatherScores, kernels.GatherSum).
func gatherScores(p, q, data []float32, col, ld int, idx []int32, scale float32) {
	kernels.GatherScores(p, q, data, col, ld, idx, scale)
}

func gatherSum(out, p, data []float32, col, ld int, idx []int32) {
	kernels.GatherSum(out, p, data, col, ld, idx)
}

// gatherScoresHalf and gatherSumHalf are the same over a cache of halves.
func gatherScoresHalf(p, q []float32, data []uint16, col, ld int, idx []int32, scale float32) {
	kernels.GatherScoresHalf(p, q, data, col, ld, idx, scale)
}

func gatherSumHalf(out, p []float32, data []uint16, col, ld int, idx []int32) {
	kernels.GatherSumHalf(out, p, data, col, ld, idx)
}

// transpose writes src (rows×cols, rows ld apart) to dst transposed, rows
// ldd apart, zeroing the padding (kernels.Transpose).
func transpose(dst []float32, ldd int, src []float32, rows, cols, ld int) {
	kernels.Transpose(dst, ldd, src, rows, cols, ld)
}
