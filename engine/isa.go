package engine

import (
	"fmt"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// The guards the engine still reads itself: the layer-norm, exp-sum and
// dropout row loops, whose assembly is in engine/internal/kernels but whose
// references are the ops' own loops (ops_norm.go, ops_loss.go,
// ops_addnorm.go). They hold the set engine/internal/cpu chose at start-up
// (the CPU's best, or the level STRATA_ISA=go|avx2|avx512|avx512vnni caps
// it at), as the kernels package's own guards do; tests flip them to run
// both paths. Every other kernel is chosen in engine/internal/kernels.
var (
	// haveAVX2FMA: the AVX2 kernels (AVX2 and FMA).
	haveAVX2FMA = cpu.Chosen.AVX2FMA
	// haveAVX512F32: the 512-bit float32 kernels (AVX512F and VL).
	haveAVX512F32 = cpu.Chosen.AVX512F32
)

// ISA names the instruction-set level the kernels run with and the
// features it enables (`strata env`).
func ISA() string {
	return fmt.Sprintf("%s (%s; detected %s)", cpu.ChosenLevel, cpu.Chosen, cpu.Detected.Level())
}

// ISAs are the values STRATA_ISA accepts, lowest first.
func ISAs() []string { return cpu.ISAs() }
