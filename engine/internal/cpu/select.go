package cpu

import (
	"fmt"
	"io"
	"os"
)

// Detected are the features of this CPU that this build can use (none in
// a purego build or off amd64).
var Detected = detect()

// Chosen are the features the kernels run with: Detected, capped at the
// level STRATA_ISA names. Every kernel's guard reads it, so the choice is
// made here, once.
var Chosen, ChosenLevel = Choose(Detected, os.Getenv("STRATA_ISA"), os.Stderr)

// Choose caps detected at the level env names (empty: no cap). A name it
// does not know, or a level the CPU lacks, is reported on notices and the
// best level detected is used instead: a run asked to be slower for a
// comparison must not stop, but must not pass unnoticed either.
func Choose(detected Features, env string, notices io.Writer) (Features, ISA) {
	if env == "" {
		return detected, detected.Level()
	}
	want, err := ParseISA(env)
	if err != nil {
		fmt.Fprintf(notices, "strata: %v; using %s\n", err, detected.Level())
		return detected, detected.Level()
	}
	if have := detected.Level(); want > have {
		fmt.Fprintf(notices, "strata: STRATA_ISA=%s: this CPU (or build) has %s only; using %s\n", want, have, have)
		return detected, have
	}
	return detected.Cap(want), want
}
