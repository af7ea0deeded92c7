//go:build !amd64 || purego

package engine

import "github.com/strata-nmt/strata/engine/internal/kernels"

func init() {
	int8Kernels = []int8TileKernel{goInt8Kernel}
	int8Kernel = chooseInt8Kernel(kernels.LegacyISAEnv("STRATA_INT8", "go", "avx2", "avx512-vnni"))
}
