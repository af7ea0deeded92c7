//go:build !purego

package kernels

// GradW12AVX512 and GradW4AVX512 are in gradw_avx512_amd64.s.
//
//go:noescape
func GradW12AVX512(dy *float32, ldy int, x *float32, ldx int, n int, c *float32, ldc int, panels int)

//go:noescape
func GradW4AVX512(dy *float32, ldy int, x *float32, ldx int, n int, c *float32, ldc int, panels int)

// GradWAVX512 is the AVX-512 weight-gradient kernel (the AVX-512 packed
// kernel's).
var GradWAVX512 = GradWKernel{
	Name: "avx512 (12x32 tile, dY and X in place)",
	Rows12: func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int) {
		CheckGradWArgs(dy, ldy, x, ldx, n, c, ldc, panels, GradWRows)
		GradW12AVX512(&dy[0], ldy, &x[0], ldx, n, &c[0], ldc, panels)
	},
	Rows4: func(dy []float32, ldy int, x []float32, ldx int, n int, c []float32, ldc int, panels int) {
		CheckGradWArgs(dy, ldy, x, ldx, n, c, ldc, panels, GradWRowsTail)
		GradW4AVX512(&dy[0], ldy, &x[0], ldx, n, &c[0], ldc, panels)
	},
}
