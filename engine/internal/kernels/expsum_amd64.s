//go:build !purego

#include "textflag.h"

// Constants of expNegPoly (fastexp.go), float32 bit patterns, and the
// exponent bias for the 2^k scale.
DATA expc<>+0(SB)/4, $0x3fb8aa3b  // log2(e)
DATA expc<>+4(SB)/4, $0x3f000000  // 0.5
DATA expc<>+8(SB)/4, $0x3f318000  // ln2 high part
DATA expc<>+12(SB)/4, $0xb95e8083 // ln2 correction
DATA expc<>+16(SB)/4, $0xc2aeac4f // minX = ln 2^-126
DATA expc<>+20(SB)/4, $0x39506967 // P coefficients, highest degree first
DATA expc<>+24(SB)/4, $0x3ab743ce
DATA expc<>+28(SB)/4, $0x3c088908
DATA expc<>+32(SB)/4, $0x3d2aa9c1
DATA expc<>+36(SB)/4, $0x3e2aaaaa
DATA expc<>+40(SB)/4, $0x3f000000
DATA expc<>+44(SB)/4, $0x3f800000 // 1
DATA expc<>+48(SB)/4, $127        // exponent bias (int32)
GLOBL expc<>(SB), RODATA|NOPTR, $52

// func ExpSumsAVX2(dst, x *float32, n int, shift float32, acc *[16]float64)
//
// For i < n (a multiple of 8): e_i = exp(x_i - shift) by expNegPoly's
// method, 8 lanes at a time with FMA; stores e_i in dst when dst is not
// nil; adds e_i to acc[0:8] and x_i to acc[8:16] in float64 (lane i%8).
// Arguments below ln 2^-126 give 0, NaN stays NaN, as in expNegPoly.
TEXT ·ExpSumsAVX2(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS shift+24(FP), Y0
	MOVQ acc+32(FP), R10
	VBROADCASTSS expc<>+16(SB), Y1
	VMOVUPD 0(R10), Y12
	VMOVUPD 32(R10), Y13
	VMOVUPD 64(R10), Y14
	VMOVUPD 96(R10), Y15
	SHRQ $3, CX
	JZ done

loop:
	VMOVUPS (SI), Y2
	// Σ x in float64
	VCVTPS2PD X2, Y3
	VADDPD Y3, Y14, Y14
	VEXTRACTF128 $1, Y2, X3
	VCVTPS2PD X3, Y3
	VADDPD Y3, Y15, Y15

	VSUBPS Y0, Y2, Y2          // v = x - shift
	VMAXPS Y2, Y1, Y3          // max(minX, v); NaN v passes through
	VCMPPS $1, Y1, Y2, Y4      // v < minX: flushed to zero at the end

	// k = trunc(v·log2e - 0.5) (= round for v ≤ 0), n = float(k)
	VBROADCASTSS expc<>+0(SB), Y5
	VMULPS Y5, Y3, Y5
	VBROADCASTSS expc<>+4(SB), Y6
	VSUBPS Y6, Y5, Y5
	VCVTTPS2DQ Y5, Y5
	VCVTDQ2PS Y5, Y6

	// r = v - n·ln2hi - n·ln2lo
	VBROADCASTSS expc<>+8(SB), Y7
	VFNMADD231PS Y7, Y6, Y3
	VBROADCASTSS expc<>+12(SB), Y7
	VFNMADD231PS Y7, Y6, Y3

	// P(r) by Horner, then e^r = P·r² + r + 1
	VBROADCASTSS expc<>+20(SB), Y8
	VBROADCASTSS expc<>+24(SB), Y9
	VFMADD213PS Y9, Y3, Y8
	VBROADCASTSS expc<>+28(SB), Y9
	VFMADD213PS Y9, Y3, Y8
	VBROADCASTSS expc<>+32(SB), Y9
	VFMADD213PS Y9, Y3, Y8
	VBROADCASTSS expc<>+36(SB), Y9
	VFMADD213PS Y9, Y3, Y8
	VBROADCASTSS expc<>+40(SB), Y9
	VFMADD213PS Y9, Y3, Y8
	VMULPS Y3, Y3, Y9
	VFMADD213PS Y3, Y9, Y8
	VBROADCASTSS expc<>+44(SB), Y9
	VADDPS Y9, Y8, Y8

	// times 2^k through the exponent bits
	VPBROADCASTD expc<>+48(SB), Y9
	VPADDD Y9, Y5, Y5
	VPSLLD $23, Y5, Y5
	VMULPS Y5, Y8, Y8
	VANDNPS Y8, Y4, Y8

	TESTQ DI, DI
	JZ nostore
	VMOVUPS Y8, (DI)
	ADDQ $32, DI

nostore:
	VCVTPS2PD X8, Y9
	VADDPD Y9, Y12, Y12
	VEXTRACTF128 $1, Y8, X9
	VCVTPS2PD X9, Y9
	VADDPD Y9, Y13, Y13

	ADDQ $32, SI
	DECQ CX
	JNZ loop

done:
	VMOVUPD Y12, 0(R10)
	VMOVUPD Y13, 32(R10)
	VMOVUPD Y14, 64(R10)
	VMOVUPD Y15, 96(R10)
	VZEROUPPER
	RET

// func ExpSumsAVX512(dst, x *float32, n int, shift float32, acc *[16]float64)
//
// expSumsAVX2 above, 16 lanes at a time, with the same results
// to the bit: each lane computes exp by the same instructions (expNegPoly's
// method), and the float64 sums keep expSumsAVX2's eight lanes, element i
// in lane i%8 and the elements added in order (the low half of each
// 16-float vector, then the high half), so that a softmax or a loss does
// not change with the CPU's vector width. n is a multiple of 16. It reads
// expc<> above, all of its constants held in registers.
TEXT ·ExpSumsAVX512(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VBROADCASTSS shift+24(FP), Z0
	MOVQ acc+32(FP), R10
	VBROADCASTSS expc<>+16(SB), Z1  // minX
	VBROADCASTSS expc<>+0(SB), Z16  // log2(e)
	VBROADCASTSS expc<>+4(SB), Z17  // 0.5
	VBROADCASTSS expc<>+8(SB), Z18  // ln2 high
	VBROADCASTSS expc<>+12(SB), Z19 // ln2 correction
	VBROADCASTSS expc<>+20(SB), Z20 // P coefficients
	VBROADCASTSS expc<>+24(SB), Z21
	VBROADCASTSS expc<>+28(SB), Z22
	VBROADCASTSS expc<>+32(SB), Z23
	VBROADCASTSS expc<>+36(SB), Z24
	VBROADCASTSS expc<>+40(SB), Z25
	VBROADCASTSS expc<>+44(SB), Z26 // 1
	VPBROADCASTD expc<>+48(SB), Z27 // exponent bias
	VMOVUPD 0(R10), Z12             // Σ e, lanes 0-7
	VMOVUPD 64(R10), Z14            // Σ x, lanes 0-7
	SHRQ $4, CX
	JZ done

loop:
	VMOVUPS (SI), Z2
	// Σ x in float64: the low eight, then the high eight
	VCVTPS2PD Y2, Z3
	VADDPD Z3, Z14, Z14
	VEXTRACTF64X4 $1, Z2, Y3
	VCVTPS2PD Y3, Z3
	VADDPD Z3, Z14, Z14

	VSUBPS Z0, Z2, Z2          // v = x - shift
	VMAXPS Z2, Z1, Z3          // max(minX, v); NaN v passes through
	VCMPPS $5, Z1, Z2, K1      // keep unless v < minX (NaN kept)

	// k = trunc(v·log2e - 0.5), n = float(k)
	VMULPS Z16, Z3, Z5
	VSUBPS Z17, Z5, Z5
	VCVTTPS2DQ Z5, Z5
	VCVTDQ2PS Z5, Z6

	// r = v - n·ln2hi - n·ln2lo
	VFNMADD231PS Z18, Z6, Z3
	VFNMADD231PS Z19, Z6, Z3

	// P(r) by Horner, then e^r = P·r² + r + 1
	VMOVAPS Z20, Z8
	VFMADD213PS Z21, Z3, Z8
	VFMADD213PS Z22, Z3, Z8
	VFMADD213PS Z23, Z3, Z8
	VFMADD213PS Z24, Z3, Z8
	VFMADD213PS Z25, Z3, Z8
	VMULPS Z3, Z3, Z9
	VFMADD213PS Z3, Z9, Z8
	VADDPS Z26, Z8, Z8

	// times 2^k through the exponent bits; v < minX gives 0
	VPADDD Z27, Z5, Z5
	VPSLLD $23, Z5, Z5
	VMULPS.Z Z5, Z8, K1, Z8

	TESTQ DI, DI
	JZ nostore
	VMOVUPS Z8, (DI)
	ADDQ $64, DI

nostore:
	VCVTPS2PD Y8, Z9
	VADDPD Z9, Z12, Z12
	VEXTRACTF64X4 $1, Z8, Y9
	VCVTPS2PD Y9, Z9
	VADDPD Z9, Z12, Z12

	ADDQ $64, SI
	DECQ CX
	JNZ loop

done:
	VMOVUPD Z12, 0(R10)
	VMOVUPD Z14, 64(R10)
	VZEROUPPER
	RET
