package engine

// The weight gradient of a linear layer, dW += dYᵀ·X for dY (n×out) and X
// (n×in), on a kernel that reads both operands where they lie (row-major,
// rows of the batch) instead of OpenBLAS, which packs both for every call.
// The product's inner dimension is the batch's thousands of rows and its
// outputs are few (out×in); a 12×32 register tile walks the batch rows of
// a 12-column strip of dY and a 32-column strip of X in step, so neither
// needs copying. Where the CPU has no such kernel (f32Kernel.gradW nil:
// AVX2 machines, STRATA_SGEMM=avx2 or blas) OpenBLAS computes it;
// STRATA_SGEMM=go runs the pure-Go one.
// docs/performance.md, "The weight gradient without packing", has the
// measurements.

const (
	gradWCols     = 32 // a tile's columns (two ZMM vectors)
	gradWRows     = 12 // a tile's rows
	gradWRowsTail = 4  // rows of the tail kernel
	// gradWBlock is how many batch rows a kernel call takes: a block of X
	// (256 rows of 128-512 inputs, 128-512 KB) stays in L2 while every
	// strip of dW passes over it, instead of streaming all of X from L3
	// for each strip.
	gradWBlock = 256
)

// gradWKernel is a pair of assembly tile kernels: c[i·ldc+j] +=
// Σ_t dy[t·ldy+i]·x[t·ldx+j] for i < 12 (rows12) or 4 (rows4) and
// j < 32·panels, each output starting from c's value and taking the
// products in order of t.
type gradWKernel struct {
	name          string
	rows12, rows4 func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int)
}

// gradW adds dyᵀ·x to dw (out×in). Rows of dw in strips of 12 (a last
// strip of 4 or 8 rows on the 4-row kernel) run in parallel, each over
// the batch rows in blocks of gradWBlock; each output is summed in batch
// order whatever the split. Rows past a multiple of 4 and columns past a
// multiple of 32 go to OpenBLAS.
func (g *Graph) gradW(dy []float32, n, out int, x []float32, in int, dw []float32) {
	kern := f32Kernel.gradW
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
					kern.rows12(dyb[r0:], out, xb, in, nb, dw[r0*in:], in, panels)
					continue
				}
				for r := r0; r < rows; r += gradWRowsTail {
					kern.rows4(dyb[r:], out, xb, in, nb, dw[r*in:], in, panels)
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

// gradWGo is the pure-Go weight-gradient kernel, the reference the
// assembly follows (which fuses each multiply-add, so results differ in
// the last bits); with the pure-Go packed kernel (STRATA_SGEMM=go) it
// also lets every CPU test gradW's strips, blocks and tails.
var gradWGo = gradWKernel{name: "go (12x32 tile, dY and X in place)", rows12: gradWGoRows(gradWRows), rows4: gradWGoRows(gradWRowsTail)}

func gradWGoRows(rows int) func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int) {
	return func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int) {
		checkGradWArgs(dy, ldy, x, ldx, n, c, ldc, panels, rows)
		cols := panels * gradWCols
		for t := 0; t < n; t++ {
			xt := x[t*ldx : t*ldx+cols]
			for i, a := range dy[t*ldy : t*ldy+rows] {
				ci := c[i*ldc : i*ldc+cols]
				for j, v := range xt {
					ci[j] += a * v
				}
			}
		}
	}
}

// GradWKernel names what computes training's weight gradients: the
// kernel of the packed kernel in use, or OpenBLAS.
func GradWKernel() string {
	if k := f32Kernel.gradW; k != nil {
		return k.name
	}
	return "openblas sgemm (packs dY and X)"
}

// checkGradWArgs checks that the slices of a gradW kernel call cover what
// it touches (rows rows of dw): an assembly kernel would corrupt memory,
// not panic.
func checkGradWArgs(dy []float32, ldy int, x []float32, ldx, n int, c []float32, ldc, panels, rows int) {
	if n < 1 || panels < 1 {
		panic("engine: gradW kernel needs n >= 1 and panels >= 1")
	}
	_ = dy[(n-1)*ldy+rows-1]
	_ = x[(n-1)*ldx+panels*gradWCols-1]
	_ = c[(rows-1)*ldc+panels*gradWCols-1]
}
