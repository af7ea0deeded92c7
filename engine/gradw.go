package engine

import "github.com/strata-nmt/strata/engine/internal/kernels"

// The weight gradient of a linear layer, dW += dYᵀ·X for dY (n×out) and X
// (n×in), on a kernel that reads both operands where they lie (row-major,
// rows of the batch) instead of OpenBLAS, which packs both for every call.
// The product's inner dimension is the batch's thousands of rows and its
// outputs are few (out×in); a 12×32 register tile walks the batch rows of
// a 12-column strip of dY and a 32-column strip of X in step, so neither
// needs copying. Where the CPU has no such kernel (f32Kernel.GradW nil:
// AVX2 machines, STRATA_ISA=avx2, STRATA_SGEMM=blas) OpenBLAS computes it;
// STRATA_ISA=go runs the pure-Go one.
// docs/performance.md, "The weight gradient without packing", has the
// measurements.

// The kernels (engine/internal/kernels, gradw.go) take tiles of
// kernels.GradWRows (or GradWRowsTail) rows by kernels.GradWCols columns.
const (
	gradWCols     = kernels.GradWCols
	gradWRows     = kernels.GradWRows
	gradWRowsTail = kernels.GradWRowsTail
	// gradWBlock is how many batch rows a kernel call takes: a block of X
	// (256 rows of 128-512 inputs, 128-512 KB) stays in L2 while every
	// strip of dW passes over it, instead of streaming all of X from L3
	// for each strip.
	gradWBlock = 256
)

// gradW adds dyᵀ·x to dw (out×in). Rows of dw in strips of 12 (a last
// strip of 4 or 8 rows on the 4-row kernel) run in parallel, each over
// the batch rows in blocks of gradWBlock; each output is summed in batch
// order whatever the split. Rows past a multiple of 4 and columns past a
// multiple of 32 go to OpenBLAS.
func (g *Graph) gradW(dy []float32, n, out int, x []float32, in int, dw []float32) {
	kern := f32Kernel.GradW
	rows, cols := out-out%gradWRowsTail, in-in%gradWCols
	if kern == nil || n == 0 || rows == 0 || cols == 0 {
		g.gemm(true, false, out, in, n, 1, dy, out, x, in, 1, dw, in)
		return
	}
	// traced as the OpenBLAS product it replaces, for the floor replay
	traceGemm(GemmCall{true, false, out, in, n, out, in, in, true})
	panels := cols / gradWCols
	strips := (rows + gradWRows - 1) / gradWRows
	g.parallel(strips, gradWRows*cols*n, func(_, lo, hi int) {
		for t0 := 0; t0 < n; t0 += gradWBlock {
			nb, dyb, xb := min(gradWBlock, n-t0), dy[t0*out:], x[t0*in:]
			for s := lo; s < hi; s++ {
				r0 := s * gradWRows
				if r0+gradWRows <= rows {
					kern.Rows12(dyb[r0:], out, xb, in, nb, dw[r0*in:], in, panels)
					continue
				}
				for r := r0; r < rows; r += gradWRowsTail {
					kern.Rows4(dyb[r:], out, xb, in, nb, dw[r*in:], in, panels)
				}
			}
		}
	})
	if rows < out {
		gemm1(true, false, out-rows, in, n, 1, dy[rows:], out, x, in, 1, dw[rows*in:], in)
	}
	if cols < in {
		gemm1(true, false, rows, in-cols, n, 1, dy, out, x[cols:], in, 1, dw[cols:], in)
	}
}

// GradWKernel names what computes training's weight gradients: the
// kernel of the packed kernel in use, or OpenBLAS.
func GradWKernel() string {
	if k := f32Kernel.GradW; k != nil {
		return k.Name
	}
	return "openblas sgemm (packs dY and X)"
}
