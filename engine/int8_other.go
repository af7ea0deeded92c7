//go:build !amd64

package engine

import "os"

func init() {
	int8Kernels = []int8TileKernel{goInt8Kernel}
	int8Kernel = chooseInt8Kernel(os.Getenv("STRATA_INT8"))
}
