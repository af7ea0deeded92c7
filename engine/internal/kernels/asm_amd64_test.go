//go:build !purego

package kernels

// The assembly kernels this CPU can run, for the tests (asm_other_test.go:
// none in a purego build or off amd64).

import "github.com/strata-nmt/strata/engine/internal/cpu"

func gradWAVX512() GradWKernel { return GradWAVX512 }

// detectedF32Kernels are the packed kernels this CPU can run, whatever
// STRATA_ISA chose.
func detectedF32Kernels() []F32TileKernel {
	ks := []F32TileKernel{F32Go}
	if cpu.Detected.AVX2FMA {
		ks = append(ks, F32AVX2)
	}
	if cpu.Detected.AVX512F32 {
		ks = append(ks, F32AVX512)
	}
	return ks
}
