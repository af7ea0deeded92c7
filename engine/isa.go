package engine

import (
	"fmt"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// The guards of every kernel choice in the engine, read from the one set
// engine/internal/cpu chose at start-up (the CPU's best, or the level
// STRATA_ISA=go|avx2|avx512|avx512vnni caps it at). Tests flip them to run
// both paths of a kernel.
var (
	// haveAVX2FMA: the AVX2 kernels (AVX2 and FMA).
	haveAVX2FMA = cpu.Chosen.AVX2FMA
	// haveF16C: the half-precision cache kernels (F16C besides AVX2).
	haveF16C = cpu.Chosen.F16C
	// haveAVX512F32: the 512-bit float32 kernels (AVX512F and VL).
	haveAVX512F32 = cpu.Chosen.AVX512F32
	// haveVNNI: the vpdpbusd int8 kernel (AVX512_VNNI and VL).
	haveVNNI = cpu.Chosen.VNNI
)

// ISA names the instruction-set level the kernels run with and the
// features it enables (`strata env`).
func ISA() string {
	return fmt.Sprintf("%s (%s; detected %s)", cpu.ChosenLevel, cpu.Chosen, cpu.Detected.Level())
}

// ISAs are the values STRATA_ISA accepts, lowest first.
func ISAs() []string { return cpu.ISAs() }
