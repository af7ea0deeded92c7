//go:build !purego

#include "textflag.h"
#include "rows_amd64.h"

// Gathered dot products and axpys for StepAttention: keys and values sit
// in cache rows found through an index, so there is no matrix for BLAS.

// func DotRowsAVX2(q *float32, dh int, base *float32, idx *int32, n int, stride int, out *float32, scale float32)
//
// out[j] = scale · Σ_{k<dh} q[k]·base[idx[j]·stride + k] for j < n; dh is a
// positive multiple of 8, stride in floats.
TEXT ·DotRowsAVX2(SB), NOSPLIT, $0-60
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

	// Four keys at a time while four remain: each q chunk is loaded once
	// for the four, and the four sums are reduced together. Every key's
	// sum takes the single-key path's order (even and odd 8-float chunks
	// in two accumulators, their sum, its halves, then two pairwise adds),
	// so a score does not depend on which path computed it.
dot4key:
	CMPQ R9, $4
	JLT dotkey
	DOT4START

dot4x16:
	CMPQ R11, $16
	JLT dot4x8
	VMOVUPS (BX), Y8
	VMOVUPS 32(BX), Y9
	VFMADD231PS (AX), Y8, Y0
	VFMADD231PS 32(AX), Y9, Y1
	VFMADD231PS (R12), Y8, Y2
	VFMADD231PS 32(R12), Y9, Y3
	VFMADD231PS (R13), Y8, Y4
	VFMADD231PS 32(R13), Y9, Y5
	VFMADD231PS (R14), Y8, Y6
	VFMADD231PS 32(R14), Y9, Y7
	ADDQ $64, BX
	ADDQ $64, AX
	ADDQ $64, R12
	ADDQ $64, R13
	ADDQ $64, R14
	SUBQ $16, R11
	JMP dot4x16

dot4x8:
	TESTQ R11, R11
	JZ dot4sum
	VMOVUPS (BX), Y8
	VFMADD231PS (AX), Y8, Y0
	VFMADD231PS (R12), Y8, Y2
	VFMADD231PS (R13), Y8, Y4
	VFMADD231PS (R14), Y8, Y6

dot4sum:
	DOT4SUM
	ADDQ $16, DI
	ADDQ $16, R8
	SUBQ $4, R9
	JNZ dot4key
	JMP dotdone

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

// func AxpyRowsAVX2(out *float32, dh int, base *float32, idx *int32, p *float32, n int, stride int)
//
// out[k] += Σ_{j<n} p[j]·base[idx[j]·stride + k] for k < dh (a positive
// multiple of 32), in order of j. Rows with p[j] == 0 are skipped (padded
// keys), as the scalar loop does; a NaN p[j] is not. The outer loop runs
// over 32-float column chunks held in four registers, the inner loop over
// keys, so out is loaded and stored once per chunk.
TEXT ·AxpyRowsAVX2(SB), NOSPLIT, $0-56
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

axpychunk:
	CMPQ CX, $64
	JLT axpy32

	// 64 columns per pass while 64 remain: eight independent accumulators
	// keep both FMA pipes busy where four wait on their own latency; each
	// column sees the same FMAs in the same key order, so the same bits
	AXPY64START

axpy64key:
	VMOVSS (R13), X14
	VUCOMISS X13, X14
	JPS axpy64use
	JEQ axpy64next

axpy64use:
	VBROADCASTSS (R13), Y15
	MOVLQSX (R12), AX
	IMULQ R10, AX
	ADDQ DX, AX
	VFMADD231PS (AX), Y15, Y0
	VFMADD231PS 32(AX), Y15, Y1
	VFMADD231PS 64(AX), Y15, Y2
	VFMADD231PS 96(AX), Y15, Y3
	VFMADD231PS 128(AX), Y15, Y4
	VFMADD231PS 160(AX), Y15, Y5
	VFMADD231PS 192(AX), Y15, Y6
	VFMADD231PS 224(AX), Y15, Y7

axpy64next:
	ADDQ $4, R12
	ADDQ $4, R13
	DECQ R11
	JNZ axpy64key
	AXPY64END
	ADDQ $256, DI
	ADDQ $256, DX
	SUBQ $64, CX
	JNZ axpychunk
	JMP axpydone

axpy32:
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	MOVQ R8, R12
	MOVQ SI, R13
	MOVQ R9, R11

axpykey:
	VMOVSS (R13), X14
	VUCOMISS X13, X14
	JPS axpyuse
	JEQ axpynext

axpyuse:
	VBROADCASTSS (R13), Y15
	MOVLQSX (R12), AX
	IMULQ R10, AX
	ADDQ DX, AX
	VFMADD231PS (AX), Y15, Y0
	VFMADD231PS 32(AX), Y15, Y1
	VFMADD231PS 64(AX), Y15, Y2
	VFMADD231PS 96(AX), Y15, Y3

axpynext:
	ADDQ $4, R12
	ADDQ $4, R13
	DECQ R11
	JNZ axpykey
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, DI
	ADDQ $128, DX
	SUBQ $32, CX
	JNZ axpychunk

axpydone:
	VZEROUPPER
	RET
