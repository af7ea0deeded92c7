package kernels

// The weight gradient of a linear layer, dW += dYᵀ·X for dY (n×out) and X
// (n×in), read where both operands lie (engine/gradw.go splits the
// product into strips and blocks and runs these tiles over them).

const (
	GradWCols     = 32 // a tile's columns (two ZMM vectors)
	GradWRows     = 12 // a tile's rows
	GradWRowsTail = 4  // rows of the tail kernel
)

// GradWKernel is a pair of assembly tile kernels: c[i·ldc+j] +=
// Σ_t dy[t·ldy+i]·x[t·ldx+j] for i < 12 (rows12) or 4 (rows4) and
// j < 32·panels, each output starting from c's value and taking the
// products in order of t.
type GradWKernel struct {
	Name          string
	Rows12, Rows4 func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int)
}

// GradWGo is the pure-Go weight-gradient kernel, the reference the
// assembly follows (which fuses each multiply-add, so results differ in
// the last bits); with the pure-Go packed kernel (STRATA_SGEMM=go) it
// also lets every CPU test gradW's strips, blocks and tails.
var GradWGo = GradWKernel{Name: "go (12x32 tile, dY and X in place)", Rows12: gradWGoRows(GradWRows), Rows4: gradWGoRows(GradWRowsTail)}

func gradWGoRows(rows int) func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int) {
	return func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int) {
		CheckGradWArgs(dy, ldy, x, ldx, n, c, ldc, panels, rows)
		cols := panels * GradWCols
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

// CheckGradWArgs checks that the slices of a gradW kernel call cover what
// it touches (rows rows of dw): an assembly kernel would corrupt memory,
// not panic.
func CheckGradWArgs(dy []float32, ldy int, x []float32, ldx, n int, c []float32, ldc, panels, rows int) {
	if n < 1 || panels < 1 {
		panic("kernels: gradW kernel needs n >= 1 and panels >= 1")
	}
	_ = dy[(n-1)*ldy+rows-1]
	_ = x[(n-1)*ldx+panels*GradWCols-1]
	_ = c[(rows-1)*ldc+panels*GradWCols-1]
}
