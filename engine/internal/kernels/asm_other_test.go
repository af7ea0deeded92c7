//go:build !amd64 || purego

package kernels

// No assembly in this build: the tests compare the references alone.

func gradWAVX512() GradWKernel { panic("kernels: no AVX-512 weight-gradient kernel in this build") }

func detectedF32Kernels() []F32TileKernel { return []F32TileKernel{F32Go} }
