//go:build !purego

#include "textflag.h"

// Dropout masks and the masked passes of AddDropoutNorm (ops_addnorm.go)
// in AVX2. The mask of element i is keep(key, i, threshold) of
// ops_dropout.go, SplitMix64 in four 64-bit lanes: AVX2 has no 64-bit
// multiply, so each z·C is lo(z)·lo(C) + (hi(z)·lo(C) + lo(z)·hi(C))<<32,
// the low 64 bits of the product, exactly as the scalar IMUL gives them.

DATA smc<>+0(SB)/8, $0x9e3779b97f4a7c15  // SplitMix64's increment
DATA smc<>+8(SB)/8, $0xbf58476d1ce4e5b9  // first multiplier
DATA smc<>+16(SB)/8, $0x94d049bb133111eb // second multiplier
DATA smc<>+24(SB)/8, $4                  // lanes advance by 4 elements
DATA smc<>+32(SB)/8, $0                  // lane offsets 0..3
DATA smc<>+40(SB)/8, $1
DATA smc<>+48(SB)/8, $2
DATA smc<>+56(SB)/8, $3
GLOBL smc<>(SB), RODATA|NOPTR, $64

// one bit per float lane: 1, 2, 4, ... 128
DATA lanebits<>+0(SB)/4, $1
DATA lanebits<>+4(SB)/4, $2
DATA lanebits<>+8(SB)/4, $4
DATA lanebits<>+12(SB)/4, $8
DATA lanebits<>+16(SB)/4, $16
DATA lanebits<>+20(SB)/4, $32
DATA lanebits<>+24(SB)/4, $64
DATA lanebits<>+28(SB)/4, $128
GLOBL lanebits<>(SB), RODATA|NOPTR, $32

// Y0 *= C (mod 2^64) per lane, lo(C) in lo, hi(C) in hi; Y1, Y2 scratch.
#define MUL64(lo, hi) \
	VPMULUDQ lo, Y0, Y1 \
	VPSRLQ $32, Y0, Y2 \
	VPMULUDQ lo, Y2, Y2 \
	VPMULUDQ hi, Y0, Y0 \
	VPADDQ Y2, Y0, Y0 \
	VPSLLQ $32, Y0, Y0 \
	VPADDQ Y1, Y0, Y0

// The drop bits of the four elements counted by Y9 (z + increment) into
// BX at bit s; Y9 moves on by 4.
#define HASH4(s) \
	VPSRLQ $30, Y9, Y1 \
	VPXOR Y9, Y1, Y0 \
	MUL64(Y10, Y11) \
	VPSRLQ $27, Y0, Y1 \
	VPXOR Y1, Y0, Y0 \
	MUL64(Y12, Y13) \
	VPSRLQ $31, Y0, Y1 \
	VPXOR Y1, Y0, Y0 \
	VPSRLQ $32, Y0, Y0 \
	VPCMPGTQ Y0, Y14, Y0 \
	VMOVMSKPD Y0, R8 \
	SHLQ $s, R8 \
	ORQ R8, BX \
	VPADDQ Y15, Y9, Y9

// func DropMaskAVX2(mask *uint32, words int, z uint64, threshold uint32)
//
// mask[w] bit j = keep(key, base+32w+j, threshold) for w < words, where
// z = key + base: bit set where the hash's high 32 bits are ≥ threshold.
TEXT ·DropMaskAVX2(SB), NOSPLIT, $0-28
	MOVQ mask+0(FP), DI
	MOVQ words+8(FP), CX
	MOVQ z+16(FP), AX
	MOVL threshold+24(FP), DX
	TESTQ CX, CX
	JZ mdone
	ADDQ smc<>+0(SB), AX
	VMOVQ AX, X9
	VPBROADCASTQ X9, Y9
	VPADDQ smc<>+32(SB), Y9, Y9
	VPBROADCASTQ smc<>+8(SB), Y10 // the multipliers' low halves are the low dwords
	VPSRLQ $32, Y10, Y11
	VPBROADCASTQ smc<>+16(SB), Y12
	VPSRLQ $32, Y12, Y13
	VMOVQ DX, X14
	VPBROADCASTQ X14, Y14
	VPBROADCASTQ smc<>+24(SB), Y15

mloop:
	XORQ BX, BX
	HASH4(0)
	HASH4(4)
	HASH4(8)
	HASH4(12)
	HASH4(16)
	HASH4(20)
	HASH4(24)
	HASH4(28)
	NOTL BX
	MOVL BX, (DI)
	ADDQ $4, DI
	DECQ CX
	JNZ mloop

mdone:
	VZEROUPPER
	RET

// Y1 = all ones in the float lanes of the 8 bits of Y8 at lanebits (Y14);
// Y8 moves on to the next 8 bits.
#define LANES \
	VPAND Y14, Y8, Y1 \
	VPCMPEQD Y14, Y1, Y1 \
	VPSRLD $8, Y8, Y8

// func AddMaskedAVX2(y, x, f *float32, mask *uint32, words int, scale float32)
//
// y[i] = x[i] + (f[i]·scale where mask bit i is set, else +0) for
// i < 32·words: AddDropout's expression, element for element.
TEXT ·AddMaskedAVX2(SB), NOSPLIT, $0-44
	MOVQ y+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ f+16(FP), DX
	MOVQ mask+24(FP), BX
	MOVQ words+32(FP), CX
	VBROADCASTSS scale+40(FP), Y15
	VMOVDQU lanebits<>(SB), Y14
	TESTQ CX, CX
	JZ adone

aloop:
	VPBROADCASTD (BX), Y8
	LANES
	VMULPS (DX), Y15, Y2
	VANDPS Y1, Y2, Y2
	VADDPS (SI), Y2, Y2
	VMOVUPS Y2, (DI)
	LANES
	VMULPS 32(DX), Y15, Y2
	VANDPS Y1, Y2, Y2
	VADDPS 32(SI), Y2, Y2
	VMOVUPS Y2, 32(DI)
	LANES
	VMULPS 64(DX), Y15, Y2
	VANDPS Y1, Y2, Y2
	VADDPS 64(SI), Y2, Y2
	VMOVUPS Y2, 64(DI)
	LANES
	VMULPS 96(DX), Y15, Y2
	VANDPS Y1, Y2, Y2
	VADDPS 96(SI), Y2, Y2
	VMOVUPS Y2, 96(DI)
	ADDQ $128, DI
	ADDQ $128, SI
	ADDQ $128, DX
	ADDQ $4, BX
	DECQ CX
	JNZ aloop

adone:
	VZEROUPPER
	RET

// func AccMaskedAVX2(dst, src *float32, mask *uint32, words int, scale float32)
//
// dst[i] += (src[i]·scale where mask bit i is set, else +0) for
// i < 32·words: AddDropout's backward into f's gradient.
TEXT ·AccMaskedAVX2(SB), NOSPLIT, $0-36
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ mask+16(FP), BX
	MOVQ words+24(FP), CX
	VBROADCASTSS scale+32(FP), Y15
	VMOVDQU lanebits<>(SB), Y14
	TESTQ CX, CX
	JZ cdone

cloop:
	VPBROADCASTD (BX), Y8
	LANES
	VMULPS (SI), Y15, Y2
	VANDPS Y1, Y2, Y2
	VADDPS (DI), Y2, Y2
	VMOVUPS Y2, (DI)
	LANES
	VMULPS 32(SI), Y15, Y2
	VANDPS Y1, Y2, Y2
	VADDPS 32(DI), Y2, Y2
	VMOVUPS Y2, 32(DI)
	LANES
	VMULPS 64(SI), Y15, Y2
	VANDPS Y1, Y2, Y2
	VADDPS 64(DI), Y2, Y2
	VMOVUPS Y2, 64(DI)
	LANES
	VMULPS 96(SI), Y15, Y2
	VANDPS Y1, Y2, Y2
	VADDPS 96(DI), Y2, Y2
	VMOVUPS Y2, 96(DI)
	ADDQ $128, DI
	ADDQ $128, SI
	ADDQ $4, BX
	DECQ CX
	JNZ cloop

cdone:
	VZEROUPPER
	RET
