//go:build !purego

package cpu

import "golang.org/x/sys/cpu"

// detect reads CPUID (x/sys/cpu reports the AVX-512 features only where
// the OS saves their state).
func detect() Features {
	x := cpu.X86
	avx2 := x.HasAVX2 && x.HasFMA
	return Features{
		AVX2FMA:   avx2,
		F16C:      avx2 && x.HasF16C,
		AVX512F32: avx2 && x.HasAVX512F && x.HasAVX512VL,
		VNNI:      avx2 && x.HasAVX512VNNI && x.HasAVX512VL,
	}
}
