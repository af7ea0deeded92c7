// Package kernels holds strata's compute kernels below the engine's graph:
// the assembly, one file per family, and for every assembly routine a
// pure-Go reference it is tested against (the ...Go functions; the tests
// compare them bit for bit wherever the CPU can run the assembly).
//
// Which path runs is decided once, by engine/internal/cpu at start-up (the
// CPU's instruction set, capped by STRATA_ISA); the dispatching functions
// here read that choice, and the engine's own guards read the same one.
// The package imports nothing from engine, and a purego build assembles
// nothing: every kernel then runs its reference.
package kernels

import "github.com/strata-nmt/strata/engine/internal/cpu"

// avx2 guards the AVX2+FMA kernels the dispatching functions call (a
// variable, so that tests can run both paths).
var avx2 = cpu.Chosen.AVX2FMA
