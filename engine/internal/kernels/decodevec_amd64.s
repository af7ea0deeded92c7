//go:build !purego

#include "textflag.h"

// func RowMaxAVX2(x *float32, n int, start float32) float32
// The maximum of start and x[0:n] (n a positive multiple of 16) as
// "if a > mx { mx = a }" finds it: each lane keeps its value unless the
// element is greater (VMAXPS with the element first returns the second
// operand, the lane, for NaN), so a NaN element is passed over as the Go
// loop passes it over.
TEXT ·RowMaxAVX2(SB), NOSPLIT, $0-28
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	VBROADCASTSS start+16(FP), Y0
	VMOVAPS Y0, Y1

maxloop:
	VMOVUPS (SI), Y2
	VMOVUPS 32(SI), Y3
	VMAXPS Y0, Y2, Y0
	VMAXPS Y1, Y3, Y1
	ADDQ $64, SI
	DECQ CX
	JNZ maxloop

	VMAXPS Y0, Y1, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X0, X1, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X0, X1, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X0, X1, X0
	VZEROUPPER
	MOVSS X0, ret+24(FP)
	RET

// func SubScalarAVX2(x *float32, n int, c float32)
// x[j] -= c for j < n (n a positive multiple of 8).
TEXT ·SubScalarAVX2(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	VBROADCASTSS c+16(FP), Y15

subloop:
	VMOVUPS (SI), Y0
	VSUBPS Y15, Y0, Y0
	VMOVUPS Y0, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ subloop

	VZEROUPPER
	RET

// func ReluAVX2(x *float32, n int)
// x[j] = 0 where x[j]'s sign bit is set, as LinearReLU's
// bits &^ (int32(bits) >> 31) does (n a positive multiple of 8).
TEXT ·ReluAVX2(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX

reluloop:
	VMOVDQU (SI), Y0
	VPSRAD $31, Y0, Y1
	VPANDN Y0, Y1, Y0
	VMOVDQU Y0, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ reluloop

	VZEROUPPER
	RET

// func MulSubAVX2(x *float32, n int, mul, sub float32)
// x[j] = x[j]·mul - sub for j < n (n a positive multiple of 8): a multiply
// and a subtraction, each rounded, as the Go expression is compiled.
TEXT ·MulSubAVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	VBROADCASTSS mul+16(FP), Y14
	VBROADCASTSS sub+20(FP), Y15

mulsubloop:
	VMULPS (SI), Y14, Y0
	VSUBPS Y15, Y0, Y0
	VMOVUPS Y0, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ mulsubloop

	VZEROUPPER
	RET

// func BiasReluAVX2(x, bias *float32, n int)
// x[j] = ReLU(x[j] + bias[j]) for j < n (n a positive multiple of 8), the
// ReLU as reluAVX2's (sign bit set: +0).
TEXT ·BiasReluAVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ bias+8(FP), DI
	MOVQ n+16(FP), CX
	SHRQ $3, CX

brloop:
	VMOVUPS (SI), Y0
	VADDPS (DI), Y0, Y0
	VPSRAD $31, Y0, Y1
	VPANDN Y0, Y1, Y0
	VMOVDQU Y0, (SI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ brloop

	VZEROUPPER
	RET

// func ReluGradAVX2(dy, y *float32, n int)
// dy[j] = 0 where y[j] (a ReLU output: +0 or a value without the sign
// bit) is +0, as LinearReLU's backward does (n a positive multiple of 8).
TEXT ·ReluGradAVX2(SB), NOSPLIT, $0-24
	MOVQ dy+0(FP), SI
	MOVQ y+8(FP), DI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	VPXOR Y2, Y2, Y2

rgloop:
	VMOVDQU (DI), Y0
	VPCMPEQD Y2, Y0, Y1
	VPANDN (SI), Y1, Y0
	VMOVDQU Y0, (SI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ rgloop

	VZEROUPPER
	RET

// func ScaleToAVX2(dst, src *float32, n int, a float32)
// dst[j] = src[j]·a for j < n (n a positive multiple of 8), one rounded
// product each, as the Go loop computes it.
TEXT ·ScaleToAVX2(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $3, CX
	VBROADCASTSS a+24(FP), Y14

scaletoloop:
	VMULPS (SI), Y14, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ scaletoloop

	VZEROUPPER
	RET
