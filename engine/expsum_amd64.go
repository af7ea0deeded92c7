package engine

import "golang.org/x/sys/cpu"

// haveExpSumsAsm: the vectorised exponential sums need AVX2 and FMA.
var haveExpSumsAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// expSumsAVX2 is in expsum_amd64.s.
//
//go:noescape
func expSumsAVX2(dst, x *float32, n int, shift float32, acc *[16]float64)
