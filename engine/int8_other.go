//go:build !amd64 || purego

package engine

func init() {
	int8Kernels = []int8TileKernel{goInt8Kernel}
	int8Kernel = chooseInt8Kernel(legacyISAEnv("STRATA_INT8", "go", "avx2", "avx512-vnni"))
}
