#include "textflag.h"

// Gathered dot products and axpys for StepAttention: keys and values sit
// in cache rows found through an index, so there is no matrix for BLAS.

// func dotRowsAVX2(q *float32, dh int, base *float32, idx *int32, n int, stride int, out *float32, scale float32)
//
// out[j] = scale · Σ_{k<dh} q[k]·base[idx[j]·stride + k] for j < n; dh is a
// positive multiple of 8, stride in floats.
TEXT ·dotRowsAVX2(SB), NOSPLIT, $0-60
	MOVQ q+0(FP), SI
	MOVQ dh+8(FP), CX
	MOVQ base+16(FP), DX
	MOVQ idx+24(FP), R8
	MOVQ n+32(FP), R9
	MOVQ stride+40(FP), R10
	SHLQ $2, R10
	MOVQ out+48(FP), DI
	VBROADCASTSS scale+56(FP), Y15
	TESTQ R9, R9
	JZ dotdone

dotkey:
	MOVLQSX (R8), AX
	IMULQ R10, AX
	ADDQ DX, AX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	MOVQ SI, BX
	MOVQ CX, R11

dot16:
	CMPQ R11, $16
	JLT dot8
	VMOVUPS (BX), Y2
	VMOVUPS 32(BX), Y3
	VFMADD231PS (AX), Y2, Y0
	VFMADD231PS 32(AX), Y3, Y1
	ADDQ $64, BX
	ADDQ $64, AX
	SUBQ $16, R11
	JMP dot16

dot8:
	TESTQ R11, R11
	JZ dotsum
	VMOVUPS (BX), Y2
	VFMADD231PS (AX), Y2, Y0

dotsum:
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMULSS X15, X0, X0
	VMOVSS X0, (DI)
	ADDQ $4, DI
	ADDQ $4, R8
	DECQ R9
	JNZ dotkey

dotdone:
	VZEROUPPER
	RET

// func axpyRowsAVX2(out *float32, dh int, base *float32, idx *int32, p *float32, n int, stride int)
//
// out[k] += Σ_{j<n} p[j]·base[idx[j]·stride + k] for k < dh (a positive
// multiple of 8), in order of j. Rows with p[j] == 0 are skipped (padded
// keys), as the scalar loop does; a NaN p[j] is not.
TEXT ·axpyRowsAVX2(SB), NOSPLIT, $0-56
	MOVQ out+0(FP), DI
	MOVQ dh+8(FP), CX
	MOVQ base+16(FP), DX
	MOVQ idx+24(FP), R8
	MOVQ p+32(FP), SI
	MOVQ n+40(FP), R9
	MOVQ stride+48(FP), R10
	SHLQ $2, R10
	TESTQ R9, R9
	JZ axpydone
	VXORPS X13, X13, X13

axpykey:
	MOVSS (SI), X14
	UCOMISS X13, X14
	JPS axpyrow
	JEQ axpynext

axpyrow:
	VBROADCASTSS (SI), Y15
	MOVLQSX (R8), AX
	IMULQ R10, AX
	ADDQ DX, AX
	MOVQ DI, BX
	MOVQ CX, R11

axpy8:
	VMOVUPS (BX), Y0
	VFMADD231PS (AX), Y15, Y0
	VMOVUPS Y0, (BX)
	ADDQ $32, AX
	ADDQ $32, BX
	SUBQ $8, R11
	JNZ axpy8

axpynext:
	ADDQ $4, SI
	ADDQ $4, R8
	DECQ R9
	JNZ axpykey

axpydone:
	VZEROUPPER
	RET
