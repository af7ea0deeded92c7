// Package kernels holds strata's compute kernels below the engine's graph:
// the assembly, one file per family, and for every assembly routine a
// pure-Go reference it is tested against (the ...Go functions; the tests
// compare them bit for bit wherever the CPU can run the assembly).
//
// Which path runs is decided once, by engine/internal/cpu at start-up (the
// CPU's instruction set, capped by STRATA_ISA); the dispatching functions
// here read that choice, and the engine reads no CPU feature itself.
// The package imports nothing from engine, and a purego build assembles
// nothing: every kernel then runs its reference.
package kernels

import "github.com/strata-nmt/strata/engine/internal/cpu"

// The guards of the assembly the dispatching functions call, read from
// cpu.Chosen (variables, so that tests can run both paths): avx2 the
// AVX2+FMA kernels, f16c the float16 conversions, avx512 the 512-bit
// float32 kernels, vnni the vpdpbusd int8 kernel.
var (
	avx2   = cpu.Chosen.AVX2FMA
	f16c   = cpu.Chosen.F16C
	avx512 = cpu.Chosen.AVX512F32
	vnni   = cpu.Chosen.VNNI
)
