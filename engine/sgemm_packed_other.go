//go:build !amd64 || purego

package engine

func init() {
	f32Kernels = []f32TileKernel{goF32Kernel}
	chooseF32Kernel()
}
