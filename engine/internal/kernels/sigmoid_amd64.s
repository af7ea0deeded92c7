//go:build !purego

#include "textflag.h"

#include "expneg_amd64.h"

DATA sigc<>+0(SB)/4, $0x80000000 // sign bit
GLOBL sigc<>(SB), RODATA|NOPTR, $4

// func SigmoidAVX2(dst, x *float32, n int)
//
// dst_i = SigmoidGo(x_i) for i < n (a multiple of 8), to the bit: every
// operation of SigmoidGo and ExpNeg is one unfused float32 instruction
// here, in the same order; the branches become masks. With a = -|v|,
// e = ExpNeg(a) (0 where a < minX), σ = (v ≥ 0 ? 1 : e) / (1 + e); a NaN
// lane gives its input.
TEXT ·SigmoidAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VXORPS Y15, Y15, Y15
	VBROADCASTSS sigc<>+0(SB), Y14
	VBROADCASTSS expc<>+44(SB), Y12
	SHRQ $3, CX
	JZ done

loop:
	VMOVUPS (SI), Y0           // v
	VORPS Y14, Y0, Y1          // a = -|v|
	EXPNEG_AVX2(Y1, Y2, Y3, Y4, Y5, Y6, Y7) // e = ExpNeg(a), 0 below minX

	// σ = (v ≥ 0 ? 1 : e) / (1 + e)
	VADDPS Y12, Y5, Y6
	VCMPPS $13, Y15, Y0, Y7    // v ≥ 0 (false for NaN)
	VANDPS Y12, Y7, Y8
	VANDNPS Y5, Y7, Y9
	VORPS Y9, Y8, Y8
	VDIVPS Y6, Y8, Y8

	// a NaN lane gives v itself
	VCMPPS $3, Y0, Y0, Y9
	VANDPS Y0, Y9, Y10
	VANDNPS Y8, Y9, Y8
	VORPS Y10, Y8, Y8

	VMOVUPS Y8, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
