//go:build !purego

#include "textflag.h"

// LayerNorm's float64 row arithmetic (ops_norm.go), 4 lanes at a time.
// Each lane k accumulates the elements j ≡ k (mod 4) in order, with
// separate multiplies and adds (no FMA), exactly as the Go loops' four
// partial sums do, so the results are the Go code's bit for bit
// (TestNormRowsMatchGo). n is a multiple of 4.

// func Sum4AVX2(x *float32, n int, out *[4]float64)
TEXT ·Sum4AVX2(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+16(FP), DI
	VXORPD Y0, Y0, Y0
	XORQ AX, AX
	TESTQ CX, CX
	JLE s4done

s4loop:
	VCVTPS2PD (SI)(AX*4), Y1
	VADDPD Y1, Y0, Y0
	ADDQ $4, AX
	CMPQ AX, CX
	JLT s4loop

s4done:
	VMOVUPD Y0, (DI)
	VZEROUPPER
	RET

// func Sqdev4AVX2(x *float32, n int, mean float64, out *[4]float64)
//
// lanes of Σ (x_j - mean)²
TEXT ·Sqdev4AVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSD mean+16(FP), Y2
	MOVQ out+24(FP), DI
	VXORPD Y0, Y0, Y0
	XORQ AX, AX
	TESTQ CX, CX
	JLE q4done

q4loop:
	VCVTPS2PD (SI)(AX*4), Y1
	VSUBPD Y2, Y1, Y1
	VMULPD Y1, Y1, Y1
	VADDPD Y1, Y0, Y0
	ADDQ $4, AX
	CMPQ AX, CX
	JLT q4loop

q4done:
	VMOVUPD Y0, (DI)
	VZEROUPPER
	RET

// func LnSums4AVX2(gd, h *float32, n int, out *[8]float64)
//
// out[0:4] lanes of Σ gd_j, out[4:8] lanes of Σ gd_j·h_j
TEXT ·LnSums4AVX2(SB), NOSPLIT, $0-32
	MOVQ gd+0(FP), SI
	MOVQ h+8(FP), BX
	MOVQ n+16(FP), CX
	MOVQ out+24(FP), DI
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	XORQ AX, AX
	TESTQ CX, CX
	JLE l4done

l4loop:
	VCVTPS2PD (SI)(AX*4), Y2
	VCVTPS2PD (BX)(AX*4), Y3
	VADDPD Y2, Y0, Y0
	VMULPD Y3, Y2, Y3
	VADDPD Y3, Y1, Y1
	ADDQ $4, AX
	CMPQ AX, CX
	JLT l4loop

l4done:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// func LnDx4AVX2(dx, gd, h *float32, n int, m1, m2, rs float64)
//
// dx_j += float32(rs·((gd_j - m1) - h_j·m2))
TEXT ·LnDx4AVX2(SB), NOSPLIT, $0-56
	MOVQ dx+0(FP), DI
	MOVQ gd+8(FP), SI
	MOVQ h+16(FP), BX
	MOVQ n+24(FP), CX
	VBROADCASTSD m1+32(FP), Y4
	VBROADCASTSD m2+40(FP), Y5
	VBROADCASTSD rs+48(FP), Y6
	XORQ AX, AX
	TESTQ CX, CX
	JLE x4done

x4loop:
	VCVTPS2PD (SI)(AX*4), Y0
	VSUBPD Y4, Y0, Y0
	VCVTPS2PD (BX)(AX*4), Y1
	VMULPD Y5, Y1, Y1
	VSUBPD Y1, Y0, Y0
	VMULPD Y0, Y6, Y0
	VCVTPD2PSY Y0, X0
	VADDPS (DI)(AX*4), X0, X0
	VMOVUPS X0, (DI)(AX*4)
	ADDQ $4, AX
	CMPQ AX, CX
	JLT x4loop

x4done:
	VZEROUPPER
	RET

// func LnBackRowAVX2(x, dy, h, accG, accB *float32, n int, m, rs float32)
//
// Per element of a row, LayerNorm backward's float32 part: h = (x - m)·rs,
// accG += dy·h, accB += dy (separate multiplies and adds, as the Go
// loops). n is a multiple of 8.
TEXT ·LnBackRowAVX2(SB), NOSPLIT, $0-56
	MOVQ x+0(FP), SI
	MOVQ dy+8(FP), DX
	MOVQ h+16(FP), DI
	MOVQ accG+24(FP), R8
	MOVQ accB+32(FP), R9
	MOVQ n+40(FP), CX
	VBROADCASTSS m+48(FP), Y4
	VBROADCASTSS rs+52(FP), Y5
	XORQ AX, AX
	TESTQ CX, CX
	JLE b8done

b8loop:
	VMOVUPS (SI)(AX*4), Y0
	VSUBPS Y4, Y0, Y0
	VMULPS Y5, Y0, Y0
	VMOVUPS Y0, (DI)(AX*4)
	VMOVUPS (DX)(AX*4), Y1
	VMULPS Y0, Y1, Y2
	VADDPS (R8)(AX*4), Y2, Y2
	VMOVUPS Y2, (R8)(AX*4)
	VADDPS (R9)(AX*4), Y1, Y3
	VMOVUPS Y3, (R9)(AX*4)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT b8loop

b8done:
	VZEROUPPER
	RET

// func NormAffineAVX2(y, x, gain, bias *float32, n int, m, rs float32)
//
// y_j = ((x_j - m)·rs)·gain_j + bias_j, 8 lanes at a time, as separate
// subtracts, multiplies and adds in the Go loop's order (no FMA): the
// same bits as normAffineRow's loop. n is a multiple of 8.
TEXT ·NormAffineAVX2(SB), NOSPLIT, $0-48
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ gain+16(FP), R8
	MOVQ bias+24(FP), R9
	MOVQ n+32(FP), CX
	VBROADCASTSS m+40(FP), Y0
	VBROADCASTSS rs+44(FP), Y1
	XORQ AX, AX
	TESTQ CX, CX
	JLE nadone

naloop:
	VMOVUPS (SI)(AX*4), Y2
	VSUBPS Y0, Y2, Y2
	VMULPS Y1, Y2, Y2
	VMULPS (R8)(AX*4), Y2, Y2
	VADDPS (R9)(AX*4), Y2, Y2
	VMOVUPS Y2, (DI)(AX*4)
	ADDQ $8, AX
	CMPQ AX, CX
	JLT naloop

nadone:
	VZEROUPPER
	RET
