package engine

import (
	"fmt"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// ISA names the instruction-set level the kernels run with and the
// features it enables (`strata env`).
func ISA() string {
	return fmt.Sprintf("%s (%s; detected %s)", cpu.ChosenLevel, cpu.Chosen, cpu.Detected.Level())
}

// ISAs are the values STRATA_ISA accepts, lowest first.
func ISAs() []string { return cpu.ISAs() }
