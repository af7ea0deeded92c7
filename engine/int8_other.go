//go:build !amd64

package engine

func init() {
	int8Kernels = []int8TileKernel{goInt8Kernel}
	int8Kernel = goInt8Kernel
}
