//go:build !purego

#include "textflag.h"

// Constants of ExpNeg (expsum.go) as float32 bit patterns, in its order,
// then the sign bit, 1 and the exponent bias of the 2^k scale.
DATA sigc<>+0(SB)/4, $0x3fb8aa3b  // log2(e)
DATA sigc<>+4(SB)/4, $0x3f000000  // 0.5
DATA sigc<>+8(SB)/4, $0x3f318000  // ln2 high part
DATA sigc<>+12(SB)/4, $0xb95e8083 // ln2 correction
DATA sigc<>+16(SB)/4, $0xc2aeac4f // minX = ln 2^-126
DATA sigc<>+20(SB)/4, $0x39506967 // P: hi = (c0·r + c1)·r² + (c2·r + c3)
DATA sigc<>+24(SB)/4, $0x3ab743ce // c1
DATA sigc<>+28(SB)/4, $0x3c088908 // c2
DATA sigc<>+32(SB)/4, $0x3d2aa9c1 // c3
DATA sigc<>+36(SB)/4, $0x3e2aaaaa // lo = c4·r + c5
DATA sigc<>+40(SB)/4, $0x3f000000 // c5
DATA sigc<>+44(SB)/4, $0x80000000 // sign bit
DATA sigc<>+48(SB)/4, $0x3f800000 // 1
DATA sigc<>+52(SB)/4, $127        // exponent bias (int32)
GLOBL sigc<>(SB), RODATA|NOPTR, $56

// func SigmoidAVX2(dst, x *float32, n int)
//
// dst_i = SigmoidGo(x_i) for i < n (a multiple of 8), to the bit: every
// operation of SigmoidGo and ExpNeg is one unfused float32 instruction
// here, in the same order; the branches become masks. With a = -|v|,
// e = ExpNeg(a) (0 where a < minX), σ = (v ≥ 0 ? 1 : e) / (1 + e); a NaN
// lane gives its input.
TEXT ·SigmoidAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VXORPS Y15, Y15, Y15
	VBROADCASTSS sigc<>+44(SB), Y14
	VBROADCASTSS sigc<>+16(SB), Y13
	VBROADCASTSS sigc<>+48(SB), Y12
	SHRQ $3, CX
	JZ done

loop:
	VMOVUPS (SI), Y0           // v
	VORPS Y14, Y0, Y1          // a = -|v|
	VCMPPS $1, Y13, Y1, Y2     // a < minX: e flushed to zero
	VMAXPS Y1, Y13, Y1         // max(minX, a); NaN passes through

	// k = trunc(a·log2e - 0.5), n = float(k)
	VBROADCASTSS sigc<>+0(SB), Y3
	VMULPS Y3, Y1, Y3
	VBROADCASTSS sigc<>+4(SB), Y4
	VSUBPS Y4, Y3, Y3
	VCVTTPS2DQ Y3, Y3
	VCVTDQ2PS Y3, Y4

	// r = a - n·ln2hi - n·ln2lo, r²
	VBROADCASTSS sigc<>+8(SB), Y5
	VMULPS Y5, Y4, Y5
	VSUBPS Y5, Y1, Y1
	VBROADCASTSS sigc<>+12(SB), Y5
	VMULPS Y5, Y4, Y5
	VSUBPS Y5, Y1, Y1
	VMULPS Y1, Y1, Y4

	// hi = (c0·r + c1)·r² + (c2·r + c3)
	VBROADCASTSS sigc<>+20(SB), Y5
	VMULPS Y1, Y5, Y5
	VBROADCASTSS sigc<>+24(SB), Y6
	VADDPS Y6, Y5, Y5
	VMULPS Y4, Y5, Y5
	VBROADCASTSS sigc<>+28(SB), Y6
	VMULPS Y1, Y6, Y6
	VBROADCASTSS sigc<>+32(SB), Y7
	VADDPS Y7, Y6, Y6
	VADDPS Y6, Y5, Y5

	// lo = c4·r + c5; p = ((hi·r² + lo)·r² + r) + 1
	VBROADCASTSS sigc<>+36(SB), Y6
	VMULPS Y1, Y6, Y6
	VBROADCASTSS sigc<>+40(SB), Y7
	VADDPS Y7, Y6, Y6
	VMULPS Y4, Y5, Y5
	VADDPS Y6, Y5, Y5
	VMULPS Y4, Y5, Y5
	VADDPS Y1, Y5, Y5
	VADDPS Y12, Y5, Y5

	// e = p·2^k through the exponent bits, 0 below minX
	VPBROADCASTD sigc<>+52(SB), Y6
	VPADDD Y6, Y3, Y3
	VPSLLD $23, Y3, Y3
	VMULPS Y3, Y5, Y5
	VANDNPS Y5, Y2, Y5

	// σ = (v ≥ 0 ? 1 : e) / (1 + e)
	VADDPS Y12, Y5, Y6
	VCMPPS $13, Y15, Y0, Y7    // v ≥ 0 (false for NaN)
	VANDPS Y12, Y7, Y8
	VANDNPS Y5, Y7, Y9
	VORPS Y9, Y8, Y8
	VDIVPS Y6, Y8, Y8

	// a NaN lane gives v itself
	VCMPPS $3, Y0, Y0, Y9
	VANDPS Y0, Y9, Y10
	VANDNPS Y8, Y9, Y8
	VORPS Y10, Y8, Y8

	VMOVUPS Y8, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
