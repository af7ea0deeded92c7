//go:build !purego

#include "textflag.h"

// Constants of TanhGo (tanh.go) as float32 bit patterns: the polynomial's
// in its order, then ExpNeg's (expsum.go, as in sigmoid_amd64.s), then the
// split point, -2, the sign bit, 1 and the exponent bias of the 2^k scale.
DATA tanhc<>+0(SB)/4, $0xbbbaf0ea  // -5.70498872745e-3
DATA tanhc<>+4(SB)/4, $0x3ca9134e  // 2.06390887954e-2
DATA tanhc<>+8(SB)/4, $0x3d5c1e2d  // 5.37397155531e-2 (subtracted)
DATA tanhc<>+12(SB)/4, $0x3e088393 // 1.33314422036e-1
DATA tanhc<>+16(SB)/4, $0x3eaaaa99 // 3.33332819422e-1 (subtracted)
DATA tanhc<>+20(SB)/4, $0x3fb8aa3b // log2(e)
DATA tanhc<>+24(SB)/4, $0x3f000000 // 0.5
DATA tanhc<>+28(SB)/4, $0x3f318000 // ln2 high part
DATA tanhc<>+32(SB)/4, $0xb95e8083 // ln2 correction
DATA tanhc<>+36(SB)/4, $0xc2aeac4f // minX = ln 2^-126
DATA tanhc<>+40(SB)/4, $0x39506967 // P: hi = (c0·r + c1)·r² + (c2·r + c3)
DATA tanhc<>+44(SB)/4, $0x3ab743ce // c1
DATA tanhc<>+48(SB)/4, $0x3c088908 // c2
DATA tanhc<>+52(SB)/4, $0x3d2aa9c1 // c3
DATA tanhc<>+56(SB)/4, $0x3e2aaaaa // lo = c4·r + c5
DATA tanhc<>+60(SB)/4, $0x3f000000 // c5
DATA tanhc<>+64(SB)/4, $0x3f200000 // 0.625, the split
DATA tanhc<>+68(SB)/4, $0xc0000000 // -2
DATA tanhc<>+72(SB)/4, $0x80000000 // sign bit
DATA tanhc<>+76(SB)/4, $0x3f800000 // 1
DATA tanhc<>+80(SB)/4, $127        // exponent bias (int32)
GLOBL tanhc<>(SB), RODATA|NOPTR, $84

// func TanhAVX2(dst, x *float32, n int)
//
// dst_i = TanhGo(x_i) for i < n (a multiple of 8), to the bit: every
// operation of TanhGo and ExpNeg is one unfused float32 instruction here,
// in the same order. Both branches are computed for every lane: the odd
// polynomial v + (v·s)·p(s), s = v², and, with a = |v| and e =
// ExpNeg(-2a) (0 where -2a < minX), ±(1-e)/(1+e) with v's sign; a lane
// takes the polynomial where a < 0.625, and a NaN lane its input.
TEXT ·TanhAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS tanhc<>+72(SB), Y15
	VBROADCASTSS tanhc<>+36(SB), Y14
	VBROADCASTSS tanhc<>+76(SB), Y13
	VBROADCASTSS tanhc<>+64(SB), Y12
	VBROADCASTSS tanhc<>+68(SB), Y11
	SHRQ $3, CX
	JZ done

loop:
	VMOVUPS (SI), Y0           // v
	VANDNPS Y0, Y15, Y1        // a = |v|

	// |v| < 0.625: p = (((c0·s + c1)·s - c2)·s + c3)·s - c4, v + (v·s)·p
	VMULPS Y0, Y0, Y2          // s
	VBROADCASTSS tanhc<>+0(SB), Y3
	VMULPS Y2, Y3, Y3
	VBROADCASTSS tanhc<>+4(SB), Y4
	VADDPS Y4, Y3, Y3
	VMULPS Y2, Y3, Y3
	VBROADCASTSS tanhc<>+8(SB), Y4
	VSUBPS Y4, Y3, Y3
	VMULPS Y2, Y3, Y3
	VBROADCASTSS tanhc<>+12(SB), Y4
	VADDPS Y4, Y3, Y3
	VMULPS Y2, Y3, Y3
	VBROADCASTSS tanhc<>+16(SB), Y4
	VSUBPS Y4, Y3, Y3
	VMULPS Y2, Y0, Y4
	VMULPS Y3, Y4, Y4
	VADDPS Y4, Y0, Y2          // the polynomial's tanh

	// x = -2a; ExpNeg(x) as in sigmoid_amd64.s
	VMULPS Y11, Y1, Y3
	VCMPPS $1, Y14, Y3, Y4     // x < minX: e flushed to zero
	VMAXPS Y3, Y14, Y3         // max(minX, x)

	// k = trunc(x·log2e - 0.5), n = float(k)
	VBROADCASTSS tanhc<>+20(SB), Y5
	VMULPS Y5, Y3, Y5
	VBROADCASTSS tanhc<>+24(SB), Y6
	VSUBPS Y6, Y5, Y5
	VCVTTPS2DQ Y5, Y5
	VCVTDQ2PS Y5, Y6

	// r = x - n·ln2hi - n·ln2lo, r²
	VBROADCASTSS tanhc<>+28(SB), Y7
	VMULPS Y7, Y6, Y7
	VSUBPS Y7, Y3, Y3
	VBROADCASTSS tanhc<>+32(SB), Y7
	VMULPS Y7, Y6, Y7
	VSUBPS Y7, Y3, Y3
	VMULPS Y3, Y3, Y6

	// hi = (c0·r + c1)·r² + (c2·r + c3)
	VBROADCASTSS tanhc<>+40(SB), Y7
	VMULPS Y3, Y7, Y7
	VBROADCASTSS tanhc<>+44(SB), Y8
	VADDPS Y8, Y7, Y7
	VMULPS Y6, Y7, Y7
	VBROADCASTSS tanhc<>+48(SB), Y8
	VMULPS Y3, Y8, Y8
	VBROADCASTSS tanhc<>+52(SB), Y9
	VADDPS Y9, Y8, Y8
	VADDPS Y8, Y7, Y7

	// lo = c4·r + c5; p = ((hi·r² + lo)·r² + r) + 1
	VBROADCASTSS tanhc<>+56(SB), Y8
	VMULPS Y3, Y8, Y8
	VBROADCASTSS tanhc<>+60(SB), Y9
	VADDPS Y9, Y8, Y8
	VMULPS Y6, Y7, Y7
	VADDPS Y8, Y7, Y7
	VMULPS Y6, Y7, Y7
	VADDPS Y3, Y7, Y7
	VADDPS Y13, Y7, Y7

	// e = p·2^k through the exponent bits, 0 below minX
	VPBROADCASTD tanhc<>+80(SB), Y8
	VPADDD Y8, Y5, Y5
	VPSLLD $23, Y5, Y5
	VMULPS Y5, Y7, Y7
	VANDNPS Y7, Y4, Y7

	// t = (1-e)/(1+e), negated where v < 0 (t ≥ 0: flip v's sign bit in)
	VSUBPS Y7, Y13, Y8
	VADDPS Y13, Y7, Y9
	VDIVPS Y9, Y8, Y8
	VANDPS Y15, Y0, Y9
	VXORPS Y9, Y8, Y8

	// a < 0.625 takes the polynomial (false for NaN); a NaN lane gives v
	VCMPPS $1, Y12, Y1, Y9
	VBLENDVPS Y9, Y2, Y8, Y8
	VCMPPS $3, Y0, Y0, Y9
	VBLENDVPS Y9, Y0, Y8, Y8

	VMOVUPS Y8, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
