//go:build !purego

#include "textflag.h"

// The weight gradient dW += dYᵀ·X of a linear layer (engine/gradw.go) for AVX-512,
// read straight from the row-major dY (n×out) and X (n×in): no packing.
// A tile is 12 rows of dW (12 adjacent columns of dY, 12 contiguous floats
// of each dY row) by 32 columns (32 contiguous floats of each X row, two
// ZMM loads). At every batch row t the kernel broadcasts each of the
// tile's 12 dY values and multiplies it into both X vectors: 24 FMAs
// against 2 vector loads and 12 broadcasts, with 24 accumulators
// (Z0-Z23, row i in Z2i and Z2i+1) in flight, enough for two 512-bit FMA
// pipes with a latency of about 4 cycles. OpenBLAS packs both operands of
// this product, whose inner dimension is the batch's thousands of rows,
// for every call; walking them in place keeps the kernel at its FMA rate
// (docs/performance.md, "The weight gradient without packing").
//
// Each output starts from what dW holds and takes the batch rows' products
// in order, one fused multiply-add at a time: the result does not depend
// on the tiling, on how the batch rows are cut into blocks (engine/gradw.go calls
// the kernel on L2-sized blocks of them) or on how the dW rows are split
// among threads, and the 4-row kernel below sums the same way.
//
// Registers: SI the tile's dY at row t, DI the panel's X at row t, DX and
// R8 the dY and X row strides in bytes, CX the batch rows left, BX the
// output row, R9 ldc in bytes, R10 the panels left, R11 and R12 the panel's first
// X column and output column, R13 n, R14 the tile's dY at row 0.

// One dY value of row off/4 of the tile times both X vectors.
#define ROW(off, B, lo, hi) \
	VBROADCASTSS off(SI), B \
	VFMADD231PS B, Z24, lo \
	VFMADD231PS B, Z25, hi

// Load a tile row's two accumulators from the output row at BX, next row.
#define IN2(lo, hi) \
	VMOVUPS (BX), lo \
	VMOVUPS 64(BX), hi \
	ADDQ R9, BX

// Store them back.
#define OUT2(lo, hi) \
	VMOVUPS lo, (BX) \
	VMOVUPS hi, 64(BX) \
	ADDQ R9, BX

#define ARGS \
	MOVQ dy+0(FP), R14 \
	MOVQ ldy+8(FP), DX \
	SHLQ $2, DX \
	MOVQ x+16(FP), R11 \
	MOVQ ldx+24(FP), R8 \
	SHLQ $2, R8 \
	MOVQ n+32(FP), R13 \
	MOVQ c+40(FP), R12 \
	MOVQ ldc+48(FP), R9 \
	SHLQ $2, R9 \
	MOVQ panels+56(FP), R10

// Start a panel: cursors at row 0, rows left in CX.
#define PANEL \
	MOVQ R14, SI \
	MOVQ R11, DI \
	MOVQ R12, BX \
	MOVQ R13, CX

// Next panel: 32 columns on, in X and in the output.
#define NEXTPANEL \
	ADDQ $128, R11 \
	ADDQ $128, R12 \
	DECQ R10

// func GradW12AVX512(dy *float32, ldy int, x *float32, ldx int, n int, c *float32, ldc int, panels int)
//
// c[i·ldc+j] += Σ_t dy[t·ldy+i]·x[t·ldx+j] for i < 12, j < 32·panels;
// n >= 1, panels >= 1.
TEXT ·GradW12AVX512(SB), NOSPLIT, $0-64
	ARGS

panel12:
	PANEL
	IN2(Z0, Z1)
	IN2(Z2, Z3)
	IN2(Z4, Z5)
	IN2(Z6, Z7)
	IN2(Z8, Z9)
	IN2(Z10, Z11)
	IN2(Z12, Z13)
	IN2(Z14, Z15)
	IN2(Z16, Z17)
	IN2(Z18, Z19)
	IN2(Z20, Z21)
	IN2(Z22, Z23)
	MOVQ R12, BX

loop12:
	VMOVUPS (DI), Z24
	VMOVUPS 64(DI), Z25
	ROW(0, Z26, Z0, Z1)
	ROW(4, Z27, Z2, Z3)
	ROW(8, Z28, Z4, Z5)
	ROW(12, Z29, Z6, Z7)
	ROW(16, Z30, Z8, Z9)
	ROW(20, Z31, Z10, Z11)
	ROW(24, Z26, Z12, Z13)
	ROW(28, Z27, Z14, Z15)
	ROW(32, Z28, Z16, Z17)
	ROW(36, Z29, Z18, Z19)
	ROW(40, Z30, Z20, Z21)
	ROW(44, Z31, Z22, Z23)
	ADDQ DX, SI
	ADDQ R8, DI
	DECQ CX
	JNZ  loop12

	OUT2(Z0, Z1)
	OUT2(Z2, Z3)
	OUT2(Z4, Z5)
	OUT2(Z6, Z7)
	OUT2(Z8, Z9)
	OUT2(Z10, Z11)
	OUT2(Z12, Z13)
	OUT2(Z14, Z15)
	OUT2(Z16, Z17)
	OUT2(Z18, Z19)
	OUT2(Z20, Z21)
	OUT2(Z22, Z23)
	NEXTPANEL
	JNZ panel12
	VZEROUPPER
	RET

// func GradW4AVX512(dy *float32, ldy int, x *float32, ldx int, n int, c *float32, ldc int, panels int)
//
// The same for 4 rows (out's last rows when it is not a multiple of 12):
// 8 accumulators, still just enough in flight.
TEXT ·GradW4AVX512(SB), NOSPLIT, $0-64
	ARGS

panel4:
	PANEL
	IN2(Z0, Z1)
	IN2(Z2, Z3)
	IN2(Z4, Z5)
	IN2(Z6, Z7)
	MOVQ R12, BX

loop4:
	VMOVUPS (DI), Z24
	VMOVUPS 64(DI), Z25
	ROW(0, Z26, Z0, Z1)
	ROW(4, Z27, Z2, Z3)
	ROW(8, Z28, Z4, Z5)
	ROW(12, Z29, Z6, Z7)
	ADDQ DX, SI
	ADDQ R8, DI
	DECQ CX
	JNZ  loop4

	OUT2(Z0, Z1)
	OUT2(Z2, Z3)
	OUT2(Z4, Z5)
	OUT2(Z6, Z7)
	NEXTPANEL
	JNZ panel4
	VZEROUPPER
	RET
