// Package cpu detects the instruction sets strata's kernels use and picks,
// once at start-up, the set they run with: the best the CPU has, or a lower
// one STRATA_ISA asks for. It imports nothing from engine, so that the
// kernels below engine can ask it too.
package cpu

import (
	"fmt"
	"strings"
)

// ISA is a level of the instruction sets strata has kernels for, each
// including the ones below it.
type ISA int

const (
	// Go runs every kernel's pure-Go reference.
	Go ISA = iota
	// AVX2 adds AVX2, FMA and F16C (256-bit float kernels, the float16
	// cache's conversions, int8 products with vpmaddubsw).
	AVX2
	// AVX512 adds AVX512F and AVX512VL (the 512-bit float32 tile kernels).
	AVX512
	// AVX512VNNI adds AVX512_VNNI (int8 products with vpdpbusd).
	AVX512VNNI
)

var names = [...]string{Go: "go", AVX2: "avx2", AVX512: "avx512", AVX512VNNI: "avx512vnni"}

// String is the name STRATA_ISA takes.
func (i ISA) String() string {
	if i < 0 || int(i) >= len(names) {
		return fmt.Sprintf("ISA(%d)", int(i))
	}
	return names[i]
}

// ISAs are the names ParseISA accepts, lowest first.
func ISAs() []string { return names[:] }

// ParseISA reads an ISA's name (as String writes it, any case).
func ParseISA(s string) (ISA, error) {
	for i, n := range names {
		if strings.EqualFold(strings.TrimSpace(s), n) {
			return ISA(i), nil
		}
	}
	return Go, fmt.Errorf("STRATA_ISA=%q: want one of %s", s, strings.Join(names[:], ", "))
}

// Features are the facts the kernels are guarded by.
type Features struct {
	// AVX2FMA: AVX2 and FMA (every AVX2 kernel).
	AVX2FMA bool
	// F16C: the half-precision conversions (with AVX2FMA).
	F16C bool
	// AVX512F32: AVX512F and AVX512VL (with AVX2FMA): the 512-bit float32
	// kernels.
	AVX512F32 bool
	// VNNI: AVX512_VNNI and AVX512VL (with AVX2FMA): vpdpbusd on ymm
	// registers. AVX-VNNI (the VEX form of Alder Lake and Zen 5) is
	// another encoding, which the Go assembler does not emit.
	VNNI bool
}

// Level is the highest ISA whose features are all present.
func (f Features) Level() ISA {
	switch {
	case f.AVX512F32 && f.VNNI && f.F16C:
		return AVX512VNNI
	case f.AVX512F32 && f.F16C:
		return AVX512
	case f.AVX2FMA && f.F16C:
		return AVX2
	}
	return Go
}

// Cap drops the features above level; the ones at or below it stay as
// detected (a CPU with AVX2 but no F16C keeps its AVX2 kernels).
func (f Features) Cap(level ISA) Features {
	if level < AVX512VNNI {
		f.VNNI = false
	}
	if level < AVX512 {
		f.AVX512F32 = false
	}
	if level < AVX2 {
		f = Features{}
	}
	return f
}

// String lists the features present.
func (f Features) String() string {
	var s []string
	for _, x := range []struct {
		on   bool
		name string
	}{{f.AVX2FMA, "avx2+fma"}, {f.F16C, "f16c"}, {f.AVX512F32, "avx512f+vl"}, {f.VNNI, "avx512vnni"}} {
		if x.on {
			s = append(s, x.name)
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " ")
}
