//go:build !amd64 || purego

package kernels

// f32Kernels is the pure-Go kernel alone: this build has no assembly.
func f32Kernels() []F32TileKernel { return []F32TileKernel{F32Go} }
