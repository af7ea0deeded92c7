//go:build !purego

#include "textflag.h"

// int8 tile kernels for AVX2 and AVX-512 VNNI (see engine/int8.go for the scheme
// and the layout). Both share the frame, the tile loop and the epilogue
// (the macros below) and differ only in the inner product of a row, so
// their int32 accumulators, and hence their floats, are identical.

DATA onesI16<>+0(SB)/8, $0x0001000100010001
DATA onesI16<>+8(SB)/8, $0x0001000100010001
DATA onesI16<>+16(SB)/8, $0x0001000100010001
DATA onesI16<>+24(SB)/8, $0x0001000100010001
GLOBL onesI16<>(SB), RODATA, $32

// One row's products with the panel's two vectors Y8, Y9 (columns 0-7 and
// 8-15), for the 4 activation bytes at (ptr): accumulate into lo, hi.
// vpmaddubsw takes its first source (Intel order; Y10, the activations)
// as unsigned bytes, its second (Y8, Y9, the weights) as signed.
#define ROW(ptr, lo, hi) \
	VPBROADCASTD (ptr), Y10 \
	VPMADDUBSW Y8, Y10, Y11 \
	VPMADDUBSW Y9, Y10, Y12 \
	VPMADDWD Y15, Y11, Y11 \
	VPMADDWD Y15, Y12, Y12 \
	VPADDD Y11, lo, lo \
	VPADDD Y12, hi, hi

// The same with vpdpbusd (EVEX.256, AVX512_VNNI + AVX512VL): each int32
// lane adds the 4 products u8·s8 of its bytes, exactly (no int16 step, no
// saturation). Go's operand order is Intel's reversed: "VPDPBUSD Y8, Y10,
// lo" is Intel's "vpdpbusd lo, ymm10, ymm8", whose first source (EVEX.vvvv,
// Y10, the activations) is the unsigned operand and whose second
// (ModRM.rm, Y8, the weights) is the signed one.
#define ROWVNNI(ptr, lo, hi) \
	VPBROADCASTD (ptr), Y10 \
	VPDPBUSD Y8, Y10, lo \
	VPDPBUSD Y9, Y10, hi

// The epilogue of one row: (acc − comp) as float, times scale·sa[row],
// plus bias, stored at (DI).
#define OUT(lo, hi, saoff) \
	VPSUBD (R9), lo, lo \
	VPSUBD 32(R9), hi, hi \
	VCVTDQ2PS lo, lo \
	VCVTDQ2PS hi, hi \
	VBROADCASTSS saoff(R11), Y10 \
	VMULPS (R10), Y10, Y11 \
	VMULPS 32(R10), Y10, Y12 \
	VMULPS Y11, lo, lo \
	VMULPS Y12, hi, hi \
	VADDPS (R12), lo, lo \
	VADDPS 32(R12), hi, hi \
	VMOVUPS lo, (DI) \
	VMOVUPS hi, 32(DI) \
	ADDQ R8, DI

// The arguments that stay for the whole call.
#define TILE_ARGS \
	MOVQ a+0(FP), SI \
	MOVQ lda+8(FP), DX \
	MOVQ out+32(FP), DI \
	MOVQ ldo+40(FP), R8 \
	SHLQ $2, R8 \
	MOVQ comp+48(FP), R9 \
	MOVQ scale+56(FP), R10 \
	MOVQ sa+64(FP), R11 \
	MOVQ bias+72(FP), R12

// The start of a tile: the 4 row pointers SI, R13, R14, AX, the panel BX,
// the group count CX, zero accumulators Y0-Y7.
#define TILE_START \
	MOVQ SI, a+0(FP) \
	MOVQ w+16(FP), BX \
	MOVQ k4+24(FP), CX \
	LEAQ (SI)(DX*1), R13 \
	LEAQ (R13)(DX*1), R14 \
	LEAQ (R14)(DX*1), AX \
	VPXOR Y0, Y0, Y0 \
	VPXOR Y1, Y1, Y1 \
	VPXOR Y2, Y2, Y2 \
	VPXOR Y3, Y3, Y3 \
	VPXOR Y4, Y4, Y4 \
	VPXOR Y5, Y5, Y5 \
	VPXOR Y6, Y6, Y6 \
	VPXOR Y7, Y7, Y7

// The next group of 4 inputs (flags: CX reached zero).
#define TILE_NEXT \
	ADDQ $64, BX \
	ADDQ $4, SI \
	ADDQ $4, R13 \
	ADDQ $4, R14 \
	ADDQ $4, AX \
	DECQ CX

// The end of a tile: its 4 rows out, the next tile's rows (flags: no tile
// left).
#define TILE_END \
	OUT(Y0, Y1, 0) \
	OUT(Y2, Y3, 4) \
	OUT(Y4, Y5, 8) \
	OUT(Y6, Y7, 12) \
	MOVQ a+0(FP), SI \
	LEAQ (SI)(DX*4), SI \
	ADDQ $16, R11 \
	DECQ tiles+80(FP)

// func TileInt8AVX2(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)
//
// tiles (>= 1) consecutive tiles of 4 rows of unsigned (shifted)
// activations, lda bytes apart, times a packed panel of 16 weight rows over
// k4 groups of 4 inputs (k4 >= 1); each tile's 4×16 results go to out,
// ldo floats apart, the next tile's below them. vpmaddubsw's int16 pair
// sums cannot saturate: |255·w0 + 255·w1| <= 32640 for weights in
// [-64, 64].
TEXT ·TileInt8AVX2(SB), NOSPLIT, $0-88
	TILE_ARGS
	VMOVDQU onesI16<>(SB), Y15

tile:
	TILE_START

loop:
	VMOVDQU (BX), Y8
	VMOVDQU 32(BX), Y9
	ROW(SI, Y0, Y1)
	ROW(R13, Y2, Y3)
	ROW(R14, Y4, Y5)
	ROW(AX, Y6, Y7)
	TILE_NEXT
	JNZ loop

	TILE_END
	JNZ tile
	VZEROUPPER
	RET

// Two groups of one row (the 8 activation bytes at (ptr)) for 7-bit
// activations: each vpmaddubsw pair sum is at most 2·127·64 = 16256 in
// magnitude, so the two groups' int16 results add exactly (vpaddw) before
// one vpmaddwd widens them: three multiplier-port instructions per 64
// products where ROW takes four. The weights are memory operands (the
// panel's groups g and g+1: 128 bytes at BX), which leaves registers for
// two broadcasts and two temporaries per column half.
#define ROW2(ptr, lo, hi) \
	VPBROADCASTD (ptr), Y10 \
	VPBROADCASTD 4(ptr), Y11 \
	VPMADDUBSW (BX), Y10, Y12 \
	VPMADDUBSW 64(BX), Y11, Y13 \
	VPMADDUBSW 32(BX), Y10, Y8 \
	VPMADDUBSW 96(BX), Y11, Y9 \
	VPADDW Y13, Y12, Y12 \
	VPADDW Y9, Y8, Y8 \
	VPMADDWD Y15, Y12, Y12 \
	VPMADDWD Y15, Y8, Y8 \
	VPADDD Y12, lo, lo \
	VPADDD Y8, hi, hi

// The next two groups (flags: CX reached zero; k4 is even).
#define TILE_NEXT2 \
	ADDQ $128, BX \
	ADDQ $8, SI \
	ADDQ $8, R13 \
	ADDQ $8, R14 \
	ADDQ $8, AX \
	SUBQ $2, CX

// func TileInt8AVX2Pairs(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)
//
// TileInt8AVX2 for activations in [1, 127] (7-bit, shifted by 64) and an
// even k4 >= 2, two groups at a time; the same int32 sums.
TEXT ·TileInt8AVX2Pairs(SB), NOSPLIT, $0-88
	TILE_ARGS
	VMOVDQU onesI16<>(SB), Y15

ptile:
	TILE_START

ploop:
	ROW2(SI, Y0, Y1)
	ROW2(R13, Y2, Y3)
	ROW2(R14, Y4, Y5)
	ROW2(AX, Y6, Y7)
	TILE_NEXT2
	JNZ ploop

	TILE_END
	JNZ ptile
	VZEROUPPER
	RET

// func TileInt8VNNI(a *uint8, lda int, w *int8, k4 int, out *float32, ldo int, comp *int32, scale, sa, bias *float32, tiles int)
//
// TileInt8AVX2 with vpdpbusd for the inner product (AVX512_VNNI and
// AVX512VL on ymm registers, so the panels stay 16 columns, plus the AVX2
// epilogue). The int32 sums are the same exact integers.
TEXT ·TileInt8VNNI(SB), NOSPLIT, $0-88
	TILE_ARGS

vtile:
	TILE_START

vloop:
	VMOVDQU (BX), Y8
	VMOVDQU 32(BX), Y9
	ROWVNNI(SI, Y0, Y1)
	ROWVNNI(R13, Y2, Y3)
	ROWVNNI(R14, Y4, Y5)
	ROWVNNI(AX, Y6, Y7)
	TILE_NEXT
	JNZ vloop

	TILE_END
	JNZ vtile
	VZEROUPPER
	RET

DATA absMask<>+0(SB)/8, $0x7fffffff7fffffff
DATA absMask<>+8(SB)/8, $0x7fffffff7fffffff
DATA absMask<>+16(SB)/8, $0x7fffffff7fffffff
DATA absMask<>+24(SB)/8, $0x7fffffff7fffffff
GLOBL absMask<>(SB), RODATA, $32

// func AbsMaxAVX2(x *float32, n int) float32
//
// max_k |x[k]| for n a positive multiple of 8.
TEXT ·AbsMaxAVX2(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	VMOVUPS absMask<>(SB), Y15
	VXORPS Y0, Y0, Y0

maxloop:
	VANDPS (SI), Y15, Y1
	VMAXPS Y1, Y0, Y0
	ADDQ $32, SI
	DECQ CX
	JNZ maxloop

	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPERMILPS $0xb1, X0, X1
	VMAXPS X1, X0, X0
	VZEROUPPER
	MOVSS X0, ret+16(FP)
	RET

// func QuantizeAVX2(x *float32, n int, inv float32, shift uint8, dst *uint8)
//
// dst[k] = round(x[k]·inv) + shift (mod 256) for n a positive multiple of
// 8, rounding half to even (the MXCSR default) and saturating to
// [-128, 127] first.
TEXT ·QuantizeAVX2(SB), NOSPLIT, $0-32
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	VBROADCASTSS inv+16(FP), Y15
	VPBROADCASTB shift+20(FP), X14
	MOVQ dst+24(FP), DI

qloop:
	VMULPS (SI), Y15, Y0
	VCVTPS2DQ Y0, Y0
	VPACKSSDW Y0, Y0, Y0
	VPERMQ $0x08, Y0, Y0
	VPACKSSWB X0, X0, X0
	VPADDB X14, X0, X0
	MOVQ X0, (DI)
	ADDQ $32, SI
	ADDQ $8, DI
	DECQ CX
	JNZ qloop
	VZEROUPPER
	RET
