//go:build !purego

#include "textflag.h"
#include "zero_amd64.h"
#include "packedrows_amd64.h"

// float32 tile kernel for AVX-512 over packed weight panels (see
// engine/sgemm_packed.go for the layout), with the interface of TileF32AVX2: tiles
// of 6 rows × 16 outputs. A panel's 16 values at one input fill one ZMM
// register, so a row's 16 sums are one accumulator and an input costs one
// 64-byte panel load and one FMA per row, the activation broadcast from
// memory by the FMA itself (embedded broadcast, .BCST).
//
// Why 12 rows: two 512-bit FMA pipes with a latency of about 4 cycles need
// 8 or more independent accumulators in flight. One tile (6 rows) has only
// 6, so while at least two tiles remain the kernel takes them together,
// 12 rows with accumulators Z0-Z11 (row i in Zi); a last odd tile goes
// through the same loop on 6 rows (Z0-Z5), at about 3/4 of the speed.
//
// All tiles go through the 6-row loop when the rows are a multiple of
// 4 KiB apart (lda a multiple of 1024, as k = 1024 makes them in a
// product): the rows' lines at an input then all fall in one set of the L1
// cache (64 sets of 64 bytes; 12 ways on Zen 5, 8 on Zen 4 and Skylake-X),
// and 12 rows and the panel's line do not fit in it. On Zen 5 the 12-row
// loop ran at 115 GFLOP/s there against 135 for the 6-row one (and 155-165
// for the 12-row one at other strides).
//
// Either way each output is summed in input order, one fused multiply-add
// at a time, then the bias added, as TileF32AVX2 does: the results are the
// same bits whether a tile was paired or not, and the same as the AVX2
// kernel's.
//
// Registers: Z12-Z15 the panel at the four inputs of an unrolled step;
// DX lda in bytes, R8 ldo in bytes, R12 the current tile's first row of a,
// R13 k, AX the tiles left, BX the panel position, CX the loop count (then
// the bias, reloaded from the argument frame), DI the output row. Rows
// 0-2 are read at SI, SI+DX, SI+2DX, rows 3-5 at R9, R9+DX, R9+2DX, rows
// 6-8 at R10, ... and rows 9-11 at R11, ...; BP, R14 and R15 are not used.

// One input of 12 rows: the panel at wo(BX) into W, times the activations
// at ao of each row.
#define STEP12(wo, ao, W) \
	VMOVUPS wo(BX), W \
	VFMADD231PS.BCST ao(SI), W, Z0 \
	VFMADD231PS.BCST ao(SI)(DX*1), W, Z1 \
	VFMADD231PS.BCST ao(SI)(DX*2), W, Z2 \
	VFMADD231PS.BCST ao(R9), W, Z3 \
	VFMADD231PS.BCST ao(R9)(DX*1), W, Z4 \
	VFMADD231PS.BCST ao(R9)(DX*2), W, Z5 \
	VFMADD231PS.BCST ao(R10), W, Z6 \
	VFMADD231PS.BCST ao(R10)(DX*1), W, Z7 \
	VFMADD231PS.BCST ao(R10)(DX*2), W, Z8 \
	VFMADD231PS.BCST ao(R11), W, Z9 \
	VFMADD231PS.BCST ao(R11)(DX*1), W, Z10 \
	VFMADD231PS.BCST ao(R11)(DX*2), W, Z11

// One input of 6 rows.
#define STEP6(wo, ao, W) \
	VMOVUPS wo(BX), W \
	VFMADD231PS.BCST ao(SI), W, Z0 \
	VFMADD231PS.BCST ao(SI)(DX*1), W, Z1 \
	VFMADD231PS.BCST ao(SI)(DX*2), W, Z2 \
	VFMADD231PS.BCST ao(R9), W, Z3 \
	VFMADD231PS.BCST ao(R9)(DX*1), W, Z4 \
	VFMADD231PS.BCST ao(R9)(DX*2), W, Z5

// Row epilogue: add the bias (Z12) and store at (DI).
#define OUT(z) \
	VADDPS Z12, z, z \
	VMOVUPS z, (DI) \
	ADDQ R8, DI

// Row epilogue without a bias: add the row's results to what (DI) holds.
#define ACC(z) \
	VADDPS (DI), z, z \
	VMOVUPS z, (DI) \
	ADDQ R8, DI

// func TileF32AVX512(a *float32, lda int, w *float32, k int, out *float32, ldo int, bias *float32, tiles int)
//
// tiles (>= 1) consecutive tiles of 6 rows of a (lda floats apart) times a
// packed panel of 16 outputs over k (>= 1) inputs, plus bias; each tile's
// 6×16 results go to out, ldo floats apart, the next tile's below them.
// A nil bias adds the results to out instead (a gradient accumulating).
TEXT ·TileF32AVX512(SB), NOSPLIT, $0-64
	MOVQ a+0(FP), R12
	MOVQ lda+8(FP), DX
	SHLQ $2, DX
	MOVQ k+24(FP), R13
	MOVQ out+32(FP), DI
	MOVQ ldo+40(FP), R8
	SHLQ $2, R8
	MOVQ tiles+56(FP), AX
	TESTQ $4095, DX
	JZ    single // rows 4 KiB apart: see above

pair:
	CMPQ AX, $2
	JLT  single
	ROWS12
	MOVQ w+16(FP), BX
	ZERO_Y0_Y11 // the VEX-encoded clears zero the upper halves too
	MOVQ R13, CX
	SHRQ $2, CX
	JZ   pairtail

pairloop4:
	STEP12(0, 0, Z12)
	STEP12(64, 4, Z13)
	STEP12(128, 8, Z14)
	STEP12(192, 12, Z15)
	ADDQ $256, BX
	ADDQ $16, SI
	ADDQ $16, R9
	ADDQ $16, R10
	ADDQ $16, R11
	DECQ CX
	JNZ  pairloop4

pairtail:
	MOVQ R13, CX
	ANDQ $3, CX
	JZ   pairdone

pairloop1:
	STEP12(0, 0, Z12)
	ADDQ $64, BX
	ADDQ $4, SI
	ADDQ $4, R9
	ADDQ $4, R10
	ADDQ $4, R11
	DECQ CX
	JNZ  pairloop1

pairdone:
	MOVQ  bias+48(FP), CX
	TESTQ CX, CX
	JZ    pairacc
	VMOVUPS (CX), Z12
	OUT(Z0)
	OUT(Z1)
	OUT(Z2)
	OUT(Z3)
	OUT(Z4)
	OUT(Z5)
	OUT(Z6)
	OUT(Z7)
	OUT(Z8)
	OUT(Z9)
	OUT(Z10)
	OUT(Z11)
	JMP   pairnext

pairacc:
	ACC(Z0)
	ACC(Z1)
	ACC(Z2)
	ACC(Z3)
	ACC(Z4)
	ACC(Z5)
	ACC(Z6)
	ACC(Z7)
	ACC(Z8)
	ACC(Z9)
	ACC(Z10)
	ACC(Z11)

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
	ZERO_Y0_Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	MOVQ  R13, CX
	SHRQ  $2, CX
	JZ    tail

loop4:
	STEP6(0, 0, Z12)
	STEP6(64, 4, Z13)
	STEP6(128, 8, Z14)
	STEP6(192, 12, Z15)
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
	STEP6(0, 0, Z12)
	ADDQ $64, BX
	ADDQ $4, SI
	ADDQ $4, R9
	DECQ CX
	JNZ  loop1

done:
	MOVQ  bias+48(FP), CX
	TESTQ CX, CX
	JZ    accumulate
	VMOVUPS (CX), Z12
	OUT(Z0)
	OUT(Z1)
	OUT(Z2)
	OUT(Z3)
	OUT(Z4)
	OUT(Z5)
	JMP   nextsingle

accumulate:
	ACC(Z0)
	ACC(Z1)
	ACC(Z2)
	ACC(Z3)
	ACC(Z4)
	ACC(Z5)

nextsingle:
	LEAQ (R12)(DX*4), R12
	LEAQ (R12)(DX*2), R12
	DECQ AX
	JMP  single

end:
	VZEROUPPER
	RET
