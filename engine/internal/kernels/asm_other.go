//go:build !amd64 || purego

package kernels

func AdamAVX2(w, grad, m, v *float32, n int, k *AdamConsts) { panic("kernels: AdamAVX2 without amd64") }

func AddRowsAVX2(acc, src *float32, rows, ld, cols int) { panic("kernels: AddRowsAVX2 without amd64") }

func TransposeStripAVX(dst *float32, ldd int, src *float32, lds int, blocks int) {
	panic("kernels: TransposeStripAVX without amd64")
}
