//go:build !purego

#include "textflag.h"

// AttnTile6x16 (attngemm_amd64.s) twice as wide, for AVX-512: six rows of
// C by 32 columns, each row's two halves in two ZMM accumulators. Every
// output is the same sum in the same order as the AVX2 tiles form it (one
// FMA per inner step, then alpha, then C when accumulating), so the two
// kernels give the same bits; per inner step B costs 2 loads and A 6
// broadcasts for 12 512-bit FMAs, half the instructions per flop.

// One inner step: B's row (Z12, Z13) times A's rows r0 and r1.
#define ATZ6(r0, r1, lo0, hi0, lo1, hi1) \
	VBROADCASTSS r0, Z14 \
	VBROADCASTSS r1, Z15 \
	VFMADD231PS Z12, Z14, lo0 \
	VFMADD231PS Z13, Z14, hi0 \
	VFMADD231PS Z12, Z15, lo1 \
	VFMADD231PS Z13, Z15, hi1

// Scale a row by alpha (Z12), add C's row when acc (AX != 0), store it at
// (DI) and step DI to the next row.
#define ATZOUT(lo, hi) \
	VMULPS Z12, lo, lo \
	VMULPS Z12, hi, hi \
	TESTL AX, AX \
	JZ   3(PC) \
	VADDPS (DI), lo, lo \
	VADDPS 64(DI), hi, hi \
	VMOVUPS lo, (DI) \
	VMOVUPS hi, 64(DI) \
	ADDQ R11, DI

// func AttnTile6x32AVX512(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int, alpha float32, acc bool)
//
// c_r[0:32] = alpha·Σ_{p<k} a[r·ars + p·acs]·b[p·ldb + 0:32] (+ c_r[0:32]
// when acc), r = 0..5, c_r at c + r·ldc; strides in floats.
TEXT ·AttnTile6x32AVX512(SB), NOSPLIT, $0-69
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ ars+16(FP), DX
	SHLQ $2, DX
	MOVQ acs+24(FP), R8
	SHLQ $2, R8
	MOVQ b+32(FP), BX
	MOVQ ldb+40(FP), R10
	SHLQ $2, R10
	LEAQ (SI)(DX*2), R9
	ADDQ DX, R9
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	VPXORD Z2, Z2, Z2
	VPXORD Z3, Z3, Z3
	VPXORD Z4, Z4, Z4
	VPXORD Z5, Z5, Z5
	VPXORD Z6, Z6, Z6
	VPXORD Z7, Z7, Z7
	VPXORD Z8, Z8, Z8
	VPXORD Z9, Z9, Z9
	VPXORD Z10, Z10, Z10
	VPXORD Z11, Z11, Z11
	TESTQ CX, CX
	JLE z6done

z6loop:
	VMOVUPS (BX), Z12
	VMOVUPS 64(BX), Z13
	ATZ6((SI), (SI)(DX*1), Z0, Z1, Z2, Z3)
	ATZ6((SI)(DX*2), (R9), Z4, Z5, Z6, Z7)
	ATZ6((R9)(DX*1), (R9)(DX*2), Z8, Z9, Z10, Z11)
	ADDQ R8, SI
	ADDQ R8, R9
	ADDQ R10, BX
	DECQ CX
	JNZ z6loop

z6done:
	VBROADCASTSS alpha+64(FP), Z12
	MOVQ c+48(FP), DI
	MOVQ ldc+56(FP), R11
	SHLQ $2, R11
	MOVBLZX acc+68(FP), AX
	ATZOUT(Z0, Z1)
	ATZOUT(Z2, Z3)
	ATZOUT(Z4, Z5)
	ATZOUT(Z6, Z7)
	ATZOUT(Z8, Z9)
	ATZOUT(Z10, Z11)
	VZEROUPPER
	RET
