//go:build !purego

#include "textflag.h"
#include "packedrows_amd64.h"

// The AVX-512 packed kernel over two adjacent panels at once (32 outputs),
// for the products where whole pairs of panels exist (engine/sgemm_packed.go,
// packedRun). TileF32AVX512 feeds each broadcast activation to one FMA, so
// an input of 12 rows costs 12 broadcast loads and a panel load for 12
// FMAs, and the loads, not the two FMA pipes, set its pace (112-138
// GFLOP/s against a 206-219 FMA peak). Here each broadcast feeds two FMAs,
// one per panel, as in the weight-gradient kernel (gradw_avx512_amd64.s,
// 0.93-0.96 of the peak): 14 loads for 24 FMAs.
//
// Each output is summed in input order, one fused multiply-add at a time,
// from zero, then the bias added (or the sum added to the output), as
// TileF32AVX512 and TileF32AVX2 sum it: the same bits.
//
// Registers: Z0-Z23 the sums, row i's two panels in Z(2i) and Z(2i+1);
// Z24, Z25 the two panels at the current input; Z26-Z31 broadcasts. DX lda
// in bytes, R8 ldo in bytes, R12 the current tile's first row of a, R13 k,
// R14 the second panel's offset from the first (k·64 bytes), AX the tiles
// left, BX the first panel at the current input, CX the loop count (then
// the bias), DI the output row; rows at SI, SI+DX, SI+2DX, R9, ..., R11+2DX.

// One row of one input: broadcast, then one FMA per panel.
#define ROW(ao, B, lo, hi) \
	VBROADCASTSS ao, B \
	VFMADD231PS Z24, B, lo \
	VFMADD231PS Z25, B, hi

#define PANELS \
	VMOVUPS (BX), Z24 \
	VMOVUPS (BX)(R14*1), Z25

// Row epilogue with the bias (Z24, Z25): add it, store, next row.
#define OUTW(lo, hi) \
	VADDPS Z24, lo, lo \
	VADDPS Z25, hi, hi \
	VMOVUPS lo, (DI) \
	VMOVUPS hi, 64(DI) \
	ADDQ R8, DI

// Row epilogue without a bias: add to what the output holds.
#define ACCW(lo, hi) \
	VADDPS (DI), lo, lo \
	VADDPS 64(DI), hi, hi \
	VMOVUPS lo, (DI) \
	VMOVUPS hi, 64(DI) \
	ADDQ R8, DI

#define CLEAR(z) VPXORD z, z, z

// func TileF32AVX512Wide(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)
//
// TileF32AVX512 for two panels: w holds panel p then panel p+1 (k·16
// floats each), out and bias are 32 wide (bias nil: add to out).
TEXT ·TileF32AVX512Wide(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), R12
	MOVQ lda+8(FP), DX
	SHLQ $2, DX
	MOVQ k+24(FP), R13
	MOVQ R13, R14
	SHLQ $6, R14
	MOVQ out+32(FP), DI
	MOVQ ldo+40(FP), R8
	SHLQ $2, R8
	MOVQ tiles+56(FP), AX

pair:
	CMPQ AX, $2
	JLT  single
	ROWS12
	MOVQ w+16(FP), BX
	CLEAR(Z0)
	CLEAR(Z1)
	CLEAR(Z2)
	CLEAR(Z3)
	CLEAR(Z4)
	CLEAR(Z5)
	CLEAR(Z6)
	CLEAR(Z7)
	CLEAR(Z8)
	CLEAR(Z9)
	CLEAR(Z10)
	CLEAR(Z11)
	CLEAR(Z12)
	CLEAR(Z13)
	CLEAR(Z14)
	CLEAR(Z15)
	CLEAR(Z16)
	CLEAR(Z17)
	CLEAR(Z18)
	CLEAR(Z19)
	CLEAR(Z20)
	CLEAR(Z21)
	CLEAR(Z22)
	CLEAR(Z23)
	MOVQ R13, CX

pairloop:
	PANELS
	ROW((SI), Z26, Z0, Z1)
	ROW((SI)(DX*1), Z27, Z2, Z3)
	ROW((SI)(DX*2), Z28, Z4, Z5)
	ROW((R9), Z29, Z6, Z7)
	ROW((R9)(DX*1), Z30, Z8, Z9)
	ROW((R9)(DX*2), Z31, Z10, Z11)
	ROW((R10), Z26, Z12, Z13)
	ROW((R10)(DX*1), Z27, Z14, Z15)
	ROW((R10)(DX*2), Z28, Z16, Z17)
	ROW((R11), Z29, Z18, Z19)
	ROW((R11)(DX*1), Z30, Z20, Z21)
	ROW((R11)(DX*2), Z31, Z22, Z23)
	ADDQ $64, BX
	ADDQ $4, SI
	ADDQ $4, R9
	ADDQ $4, R10
	ADDQ $4, R11
	DECQ CX
	JNZ  pairloop

	MOVQ  bias+48(FP), CX
	TESTQ CX, CX
	JZ    pairacc
	VMOVUPS (CX), Z24
	VMOVUPS 64(CX), Z25
	OUTW(Z0, Z1)
	OUTW(Z2, Z3)
	OUTW(Z4, Z5)
	OUTW(Z6, Z7)
	OUTW(Z8, Z9)
	OUTW(Z10, Z11)
	OUTW(Z12, Z13)
	OUTW(Z14, Z15)
	OUTW(Z16, Z17)
	OUTW(Z18, Z19)
	OUTW(Z20, Z21)
	OUTW(Z22, Z23)
	JMP   pairnext

pairacc:
	ACCW(Z0, Z1)
	ACCW(Z2, Z3)
	ACCW(Z4, Z5)
	ACCW(Z6, Z7)
	ACCW(Z8, Z9)
	ACCW(Z10, Z11)
	ACCW(Z12, Z13)
	ACCW(Z14, Z15)
	ACCW(Z16, Z17)
	ACCW(Z18, Z19)
	ACCW(Z20, Z21)
	ACCW(Z22, Z23)

pairnext:
	LEAQ (R12)(DX*8), R12
	LEAQ (R12)(DX*4), R12
	SUBQ $2, AX
	JMP  pair

single:
	TESTQ AX, AX
	JZ    end
	ROWS6
	MOVQ  w+16(FP), BX
	CLEAR(Z0)
	CLEAR(Z1)
	CLEAR(Z2)
	CLEAR(Z3)
	CLEAR(Z4)
	CLEAR(Z5)
	CLEAR(Z6)
	CLEAR(Z7)
	CLEAR(Z8)
	CLEAR(Z9)
	CLEAR(Z10)
	CLEAR(Z11)
	MOVQ  R13, CX

loop:
	PANELS
	ROW((SI), Z26, Z0, Z1)
	ROW((SI)(DX*1), Z27, Z2, Z3)
	ROW((SI)(DX*2), Z28, Z4, Z5)
	ROW((R9), Z29, Z6, Z7)
	ROW((R9)(DX*1), Z30, Z8, Z9)
	ROW((R9)(DX*2), Z31, Z10, Z11)
	ADDQ $64, BX
	ADDQ $4, SI
	ADDQ $4, R9
	DECQ CX
	JNZ  loop

	MOVQ  bias+48(FP), CX
	TESTQ CX, CX
	JZ    accumulate
	VMOVUPS (CX), Z24
	VMOVUPS 64(CX), Z25
	OUTW(Z0, Z1)
	OUTW(Z2, Z3)
	OUTW(Z4, Z5)
	OUTW(Z6, Z7)
	OUTW(Z8, Z9)
	OUTW(Z10, Z11)
	JMP   nextsingle

accumulate:
	ACCW(Z0, Z1)
	ACCW(Z2, Z3)
	ACCW(Z4, Z5)
	ACCW(Z6, Z7)
	ACCW(Z8, Z9)
	ACCW(Z10, Z11)

nextsingle:
	LEAQ (R12)(DX*4), R12
	LEAQ (R12)(DX*2), R12
	DECQ AX
	JMP  single

end:
	VZEROUPPER
	RET
