//go:build !purego

#include "textflag.h"
#include "zero_amd64.h"

// float32 6×16 tile kernel for AVX2+FMA over packed weight panels (see
// engine/sgemm_packed.go for the layout). Accumulators: Y0-Y11 (row i in
// Y(2i), Y(2i+1): outputs 0-7 and 8-15); Y12, Y13 the panel's two vectors
// at input k; Y14, Y15 broadcast activations. Rows 0-2 are read at SI,
// SI+DX, SI+2DX, rows 3-5 at R9, R9+DX, R9+2DX.

// One input: the panel vectors at wo(BX) times the activations at ao.
#define STEP(wo, ao) \
	VMOVUPS wo(BX), Y12 \
	VMOVUPS wo+32(BX), Y13 \
	VBROADCASTSS ao(SI), Y14 \
	VBROADCASTSS ao(SI)(DX*1), Y15 \
	VFMADD231PS Y12, Y14, Y0 \
	VFMADD231PS Y13, Y14, Y1 \
	VFMADD231PS Y12, Y15, Y2 \
	VFMADD231PS Y13, Y15, Y3 \
	VBROADCASTSS ao(SI)(DX*2), Y14 \
	VBROADCASTSS ao(R9), Y15 \
	VFMADD231PS Y12, Y14, Y4 \
	VFMADD231PS Y13, Y14, Y5 \
	VFMADD231PS Y12, Y15, Y6 \
	VFMADD231PS Y13, Y15, Y7 \
	VBROADCASTSS ao(R9)(DX*1), Y14 \
	VBROADCASTSS ao(R9)(DX*2), Y15 \
	VFMADD231PS Y12, Y14, Y8 \
	VFMADD231PS Y13, Y14, Y9 \
	VFMADD231PS Y12, Y15, Y10 \
	VFMADD231PS Y13, Y15, Y11

// Row epilogue: add the bias (Y12, Y13) and store at (DI).
#define OUT(lo, hi) \
	VADDPS Y12, lo, lo \
	VADDPS Y13, hi, hi \
	VMOVUPS lo, (DI) \
	VMOVUPS hi, 32(DI) \
	ADDQ R8, DI

// Row epilogue without a bias: add the row's results to what (DI) holds.
#define ACC(lo, hi) \
	VADDPS (DI), lo, lo \
	VADDPS 32(DI), hi, hi \
	VMOVUPS lo, (DI) \
	VMOVUPS hi, 32(DI) \
	ADDQ R8, DI

// func TileF32AVX2(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)
//
// tiles (>= 1) consecutive tiles of 6 rows of a (lda floats apart) times a
// packed panel of 16 outputs over k (>= 1) inputs, plus bias; each tile's
// 6×16 results go to out, ldo floats apart, the next tile's below them.
// A nil bias adds the results to out instead (a gradient accumulating).
TEXT ·TileF32AVX2(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), R10
	MOVQ lda+8(FP), DX
	SHLQ $2, DX
	MOVQ w+16(FP), R11
	MOVQ k+24(FP), R13
	MOVQ out+32(FP), DI
	MOVQ ldo+40(FP), R8
	SHLQ $2, R8
	MOVQ bias+48(FP), R12
	MOVQ tiles+56(FP), AX

tile:
	MOVQ R10, SI
	LEAQ (SI)(DX*2), R9
	ADDQ DX, R9
	MOVQ R11, BX
	ZERO_Y0_Y11
	MOVQ R13, CX
	SHRQ $2, CX
	JZ   tail

loop4:
	STEP(0, 0)
	STEP(64, 4)
	STEP(128, 8)
	STEP(192, 12)
	ADDQ $256, BX
	ADDQ $16, SI
	ADDQ $16, R9
	DECQ CX
	JNZ  loop4

tail:
	MOVQ R13, CX
	ANDQ $3, CX
	JZ   done

loop1:
	STEP(0, 0)
	ADDQ $64, BX
	ADDQ $4, SI
	ADDQ $4, R9
	DECQ CX
	JNZ  loop1

done:
	TESTQ R12, R12
	JZ    accumulate
	VMOVUPS (R12), Y12
	VMOVUPS 32(R12), Y13
	OUT(Y0, Y1)
	OUT(Y2, Y3)
	OUT(Y4, Y5)
	OUT(Y6, Y7)
	OUT(Y8, Y9)
	OUT(Y10, Y11)
	JMP   next

accumulate:
	ACC(Y0, Y1)
	ACC(Y2, Y3)
	ACC(Y4, Y5)
	ACC(Y6, Y7)
	ACC(Y8, Y9)
	ACC(Y10, Y11)

next:
	LEAQ (R10)(DX*4), R10
	LEAQ (R10)(DX*2), R10
	DECQ AX
	JNZ  tile
	VZEROUPPER
	RET
