//go:build !amd64

package engine

// haveAVX512F32: no AVX-512 kernels off amd64.
const haveAVX512F32 = false

func init() {
	f32Kernels = []f32TileKernel{goF32Kernel}
	chooseF32Kernel()
}
