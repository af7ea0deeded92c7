package engine

import "golang.org/x/sys/cpu"

// haveF16C: the half-precision cache kernels (half_amd64.s) need F16C
// besides AVX2 and FMA.
var haveF16C = haveAVX2FMA && cpu.X86.HasF16C

//go:noescape
func dotRowsHalfAVX2(q *float32, dh int, base *uint16, idx *int32, n int, stride int, out *float32, scale float32)

//go:noescape
func axpyRowsHalfAVX2(out *float32, dh int, base *uint16, idx *int32, p *float32, n int, stride int)

//go:noescape
func halvesF16C(dst *uint16, src *float32, n int)
