//go:build !purego

#include "textflag.h"

#include "expneg_amd64.h"

// Constants of TanhGo (tanh.go) as float32 bit patterns: the polynomial's
// in its order, then the split point, -2 and the sign bit (ExpNeg's, and
// 1, are expc's).
DATA tanhc<>+0(SB)/4, $0xbbbaf0ea  // -5.70498872745e-3
DATA tanhc<>+4(SB)/4, $0x3ca9134e  // 2.06390887954e-2
DATA tanhc<>+8(SB)/4, $0x3d5c1e2d  // 5.37397155531e-2 (subtracted)
DATA tanhc<>+12(SB)/4, $0x3e088393 // 1.33314422036e-1
DATA tanhc<>+16(SB)/4, $0x3eaaaa99 // 3.33332819422e-1 (subtracted)
DATA tanhc<>+20(SB)/4, $0x3f200000 // 0.625, the split
DATA tanhc<>+24(SB)/4, $0xc0000000 // -2
DATA tanhc<>+28(SB)/4, $0x80000000 // sign bit
GLOBL tanhc<>(SB), RODATA|NOPTR, $32

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
	VBROADCASTSS tanhc<>+28(SB), Y15
	VBROADCASTSS expc<>+44(SB), Y13
	VBROADCASTSS tanhc<>+20(SB), Y12
	VBROADCASTSS tanhc<>+24(SB), Y11
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

	VMULPS Y11, Y1, Y3         // x = -2a
	EXPNEG_AVX2(Y3, Y4, Y5, Y6, Y7, Y8, Y9) // e = ExpNeg(x), 0 below minX

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
