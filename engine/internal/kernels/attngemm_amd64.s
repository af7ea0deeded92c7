//go:build !purego

#include "textflag.h"
#include "zero_amd64.h"

// Register-tiled kernels for attention's small products (attngemm.go):
// two rows of C at a time, 32 or 8 columns, the inner dimension streamed.
// Each step broadcasts A(i,p) and A(i+1,p) and multiplies one row of B:
// 8 independent accumulators in the 2×32 tile hide the FMA latency.

// func AttnTile2x32(k int, a0, a1 *float32, acs int, b *float32, ldb int, c0, c1 *float32, alpha float32, acc bool)
//
// c_r[0:32] = alpha·Σ_{p<k} a_r[p·acs]·b[p·ldb + 0:32] (+ c_r[0:32] when
// acc), r = 0, 1; strides in floats. c0 and c1 must not overlap.
TEXT ·AttnTile2x32(SB), NOSPLIT, $0-69
	MOVQ k+0(FP), CX
	MOVQ a0+8(FP), SI
	MOVQ a1+16(FP), DI
	MOVQ acs+24(FP), R8
	SHLQ $2, R8
	MOVQ b+32(FP), BX
	MOVQ ldb+40(FP), R9
	SHLQ $2, R9
	ZERO_Y0_Y7
	TESTQ CX, CX
	JLE t32done

t32loop:
	VBROADCASTSS (SI), Y8
	VBROADCASTSS (DI), Y9
	VMOVUPS (BX), Y10
	VMOVUPS 32(BX), Y11
	VMOVUPS 64(BX), Y12
	VMOVUPS 96(BX), Y13
	VFMADD231PS Y10, Y8, Y0
	VFMADD231PS Y11, Y8, Y1
	VFMADD231PS Y12, Y8, Y2
	VFMADD231PS Y13, Y8, Y3
	VFMADD231PS Y10, Y9, Y4
	VFMADD231PS Y11, Y9, Y5
	VFMADD231PS Y12, Y9, Y6
	VFMADD231PS Y13, Y9, Y7
	ADDQ R8, SI
	ADDQ R8, DI
	ADDQ R9, BX
	DECQ CX
	JNZ t32loop

t32done:
	VBROADCASTSS alpha+64(FP), Y8
	VMULPS Y8, Y0, Y0
	VMULPS Y8, Y1, Y1
	VMULPS Y8, Y2, Y2
	VMULPS Y8, Y3, Y3
	VMULPS Y8, Y4, Y4
	VMULPS Y8, Y5, Y5
	VMULPS Y8, Y6, Y6
	VMULPS Y8, Y7, Y7
	MOVQ c0+48(FP), SI
	MOVQ c1+56(FP), DI
	MOVBLZX acc+68(FP), AX
	TESTL AX, AX
	JZ t32store
	VADDPS (SI), Y0, Y0
	VADDPS 32(SI), Y1, Y1
	VADDPS 64(SI), Y2, Y2
	VADDPS 96(SI), Y3, Y3
	VADDPS (DI), Y4, Y4
	VADDPS 32(DI), Y5, Y5
	VADDPS 64(DI), Y6, Y6
	VADDPS 96(DI), Y7, Y7

t32store:
	VMOVUPS Y0, (SI)
	VMOVUPS Y1, 32(SI)
	VMOVUPS Y2, 64(SI)
	VMOVUPS Y3, 96(SI)
	VMOVUPS Y4, (DI)
	VMOVUPS Y5, 32(DI)
	VMOVUPS Y6, 64(DI)
	VMOVUPS Y7, 96(DI)
	VZEROUPPER
	RET

// func AttnTile2x8(k int, a0, a1 *float32, acs int, b *float32, ldb int, c0, c1 *float32, alpha float32, acc bool)
//
// As AttnTile2x32 for 8 columns; the inner dimension is split over two
// accumulator pairs (even and odd p) to halve the dependency chains, summed
// at the end.
TEXT ·AttnTile2x8(SB), NOSPLIT, $0-69
	MOVQ k+0(FP), CX
	MOVQ a0+8(FP), SI
	MOVQ a1+16(FP), DI
	MOVQ acs+24(FP), R8
	SHLQ $2, R8
	MOVQ b+32(FP), BX
	MOVQ ldb+40(FP), R9
	SHLQ $2, R9
	ZERO_Y0_Y3

t8pair:
	CMPQ CX, $2
	JLT t8single
	VBROADCASTSS (SI), Y8
	VBROADCASTSS (DI), Y9
	VMOVUPS (BX), Y10
	VFMADD231PS Y10, Y8, Y0
	VFMADD231PS Y10, Y9, Y1
	ADDQ R8, SI
	ADDQ R8, DI
	ADDQ R9, BX
	VBROADCASTSS (SI), Y8
	VBROADCASTSS (DI), Y9
	VMOVUPS (BX), Y10
	VFMADD231PS Y10, Y8, Y2
	VFMADD231PS Y10, Y9, Y3
	ADDQ R8, SI
	ADDQ R8, DI
	ADDQ R9, BX
	SUBQ $2, CX
	JMP t8pair

t8single:
	TESTQ CX, CX
	JZ t8done
	VBROADCASTSS (SI), Y8
	VBROADCASTSS (DI), Y9
	VMOVUPS (BX), Y10
	VFMADD231PS Y10, Y8, Y0
	VFMADD231PS Y10, Y9, Y1

t8done:
	VADDPS Y2, Y0, Y0
	VADDPS Y3, Y1, Y1
	VBROADCASTSS alpha+64(FP), Y8
	VMULPS Y8, Y0, Y0
	VMULPS Y8, Y1, Y1
	MOVQ c0+48(FP), SI
	MOVQ c1+56(FP), DI
	MOVBLZX acc+68(FP), AX
	TESTL AX, AX
	JZ t8store
	VADDPS (SI), Y0, Y0
	VADDPS (DI), Y1, Y1

t8store:
	VMOVUPS Y0, (SI)
	VMOVUPS Y1, (DI)
	VZEROUPPER
	RET

// One inner step of the 6×16 tile: B's row at (BX) (Y12, Y13) times A's
// six rows at SI, SI+DX, SI+2DX, R9, R9+DX, R9+2DX.
#define ATT6(r0, r1, lo0, hi0, lo1, hi1) \
	VBROADCASTSS r0, Y14 \
	VBROADCASTSS r1, Y15 \
	VFMADD231PS Y12, Y14, lo0 \
	VFMADD231PS Y13, Y14, hi0 \
	VFMADD231PS Y12, Y15, lo1 \
	VFMADD231PS Y13, Y15, hi1

// Scale a row by alpha (Y12), add C's row when acc (AX != 0), store it at
// (DI) and step DI to the next row.
#define ATTOUT(lo, hi) \
	VMULPS Y12, lo, lo \
	VMULPS Y12, hi, hi \
	TESTL AX, AX \
	JZ   3(PC) \
	VADDPS (DI), lo, lo \
	VADDPS 32(DI), hi, hi \
	VMOVUPS lo, (DI) \
	VMOVUPS hi, 32(DI) \
	ADDQ R11, DI

// func AttnTile6x16(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int, alpha float32, acc bool)
//
// c_r[0:16] = alpha·Σ_{p<k} a[r·ars + p·acs]·b[p·ldb + 0:16] (+ c_r[0:16]
// when acc), r = 0..5, c_r at c + r·ldc; strides in floats. Each output is
// the same sum, in the same order, as AttnTile2x32 forms it (so the two
// give the same bits); 12 accumulators instead of 8 keep both FMA pipes
// busy through the 4-cycle latency, and B costs 2 loads per 12 FMAs, not 4
// per 8.
TEXT ·AttnTile6x16(SB), NOSPLIT, $0-69
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
	ZERO_Y0_Y11
	TESTQ CX, CX
	JLE t6done

t6loop:
	VMOVUPS (BX), Y12
	VMOVUPS 32(BX), Y13
	ATT6((SI), (SI)(DX*1), Y0, Y1, Y2, Y3)
	ATT6((SI)(DX*2), (R9), Y4, Y5, Y6, Y7)
	ATT6((R9)(DX*1), (R9)(DX*2), Y8, Y9, Y10, Y11)
	ADDQ R8, SI
	ADDQ R8, R9
	ADDQ R10, BX
	DECQ CX
	JNZ t6loop

t6done:
	VBROADCASTSS alpha+64(FP), Y12
	MOVQ c+48(FP), DI
	MOVQ ldc+56(FP), R11
	SHLQ $2, R11
	MOVBLZX acc+68(FP), AX
	ATTOUT(Y0, Y1)
	ATTOUT(Y2, Y3)
	ATTOUT(Y4, Y5)
	ATTOUT(Y6, Y7)
	ATTOUT(Y8, Y9)
	ATTOUT(Y10, Y11)
	VZEROUPPER
	RET
