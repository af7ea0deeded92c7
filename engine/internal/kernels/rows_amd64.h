// Shared by rows_amd64.s and half_amd64.s (the float32 and float16
// decoder caches' gathered dot products and axpys).

#include "zero_amd64.h"

// DOT4START points AX, R12, R13, R14 at the cache rows of the next four
// keys (indices at R8, rows R10 bytes apart from DX), zeroes their
// accumulator pairs Y0-Y7, and starts the chunk loop: BX at the query SI,
// R11 its length CX.
#define DOT4START \
	MOVLQSX (R8), AX \
	IMULQ R10, AX \
	ADDQ DX, AX \
	MOVLQSX 4(R8), R12 \
	IMULQ R10, R12 \
	ADDQ DX, R12 \
	MOVLQSX 8(R8), R13 \
	IMULQ R10, R13 \
	ADDQ DX, R13 \
	MOVLQSX 12(R8), R14 \
	IMULQ R10, R14 \
	ADDQ DX, R14 \
	ZERO_Y0_Y7 \
	MOVQ SI, BX \
	MOVQ CX, R11

// DOT4SUM reduces the four keys' accumulator pairs (Y0,Y1) (Y2,Y3)
// (Y4,Y5) (Y6,Y7) to their four scaled sums at (DI), each in the order of
// the single-key reduction: a+b, low half + high half, then
// (x0+x1)+(x2+x3) through two horizontal adds.
#define DOT4SUM \
	VADDPS Y1, Y0, Y0 \
	VADDPS Y3, Y2, Y2 \
	VADDPS Y5, Y4, Y4 \
	VADDPS Y7, Y6, Y6 \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPS X1, X0, X0 \
	VEXTRACTF128 $1, Y2, X3 \
	VADDPS X3, X2, X2 \
	VEXTRACTF128 $1, Y4, X5 \
	VADDPS X5, X4, X4 \
	VEXTRACTF128 $1, Y6, X7 \
	VADDPS X7, X6, X6 \
	VHADDPS X2, X0, X0 \
	VHADDPS X6, X4, X4 \
	VHADDPS X4, X0, X0 \
	VMULPS X15, X0, X0 \
	VMOVUPS X0, (DI)

// AXPY64START loads the 64 output columns at DI into Y0-Y7 and starts the
// key loop: R12 at the indices R8, R13 at the weights SI, R11 the count R9.
#define AXPY64START \
	VMOVUPS (DI), Y0 \
	VMOVUPS 32(DI), Y1 \
	VMOVUPS 64(DI), Y2 \
	VMOVUPS 96(DI), Y3 \
	VMOVUPS 128(DI), Y4 \
	VMOVUPS 160(DI), Y5 \
	VMOVUPS 192(DI), Y6 \
	VMOVUPS 224(DI), Y7 \
	MOVQ R8, R12 \
	MOVQ SI, R13 \
	MOVQ R9, R11

// AXPY64END stores Y0-Y7 back to the 64 output columns at DI.
#define AXPY64END \
	VMOVUPS Y0, (DI) \
	VMOVUPS Y1, 32(DI) \
	VMOVUPS Y2, 64(DI) \
	VMOVUPS Y3, 96(DI) \
	VMOVUPS Y4, 128(DI) \
	VMOVUPS Y5, 160(DI) \
	VMOVUPS Y6, 192(DI) \
	VMOVUPS Y7, 224(DI)
