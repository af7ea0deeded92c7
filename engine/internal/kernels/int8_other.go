//go:build !amd64 || purego

package kernels

// int8Kernels is the pure-Go kernel alone: this build has no assembly.
func int8Kernels() []Int8TileKernel { return []Int8TileKernel{Int8Go} }

// quantizeKernels: none without assembly.
func quantizeKernels() (func(x []float32) float32, func(dst []uint8, x []float32, inv float32, shift uint8)) {
	return nil, nil
}
