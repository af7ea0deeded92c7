//go:build !purego

#include "textflag.h"
#include "rows_amd64.h"

// Float16 (IEEE binary16) decoder caches: the gathered dot products and
// axpys of rows_amd64.s over rows stored as halves, widened by F16C's
// VCVTPH2PS as they are loaded, and the float32 → half store (VCVTPS2PH,
// round to nearest even).

// func DotRowsHalfAVX2(q *float32, dh int, base *uint16, idx *int32, n int, stride int, out *float32, scale float32)
//
// out[j] = scale · Σ_{k<dh} q[k]·half(base[idx[j]·stride + k]) for j < n;
// dh is a positive multiple of 8, stride in halves.
TEXT ·DotRowsHalfAVX2(SB), NOSPLIT, $0-60
	MOVQ q+0(FP), SI
	MOVQ dh+8(FP), CX
	MOVQ base+16(FP), DX
	MOVQ idx+24(FP), R8
	MOVQ n+32(FP), R9
	MOVQ stride+40(FP), R10
	SHLQ $1, R10
	MOVQ out+48(FP), DI
	VBROADCASTSS scale+56(FP), Y15
	TESTQ R9, R9
	JZ hdotdone

	// four keys at a time while four remain, as dotRowsAVX2 (the same
	// per-key order of additions)
hdot4key:
	CMPQ R9, $4
	JLT hdotkey
	DOT4START

hdot4x16:
	CMPQ R11, $16
	JLT hdot4x8
	VMOVUPS (BX), Y8
	VMOVUPS 32(BX), Y9
	VCVTPH2PS (AX), Y10
	VCVTPH2PS 16(AX), Y11
	VCVTPH2PS (R12), Y12
	VCVTPH2PS 16(R12), Y13
	VFMADD231PS Y10, Y8, Y0
	VFMADD231PS Y11, Y9, Y1
	VFMADD231PS Y12, Y8, Y2
	VFMADD231PS Y13, Y9, Y3
	VCVTPH2PS (R13), Y10
	VCVTPH2PS 16(R13), Y11
	VCVTPH2PS (R14), Y12
	VCVTPH2PS 16(R14), Y13
	VFMADD231PS Y10, Y8, Y4
	VFMADD231PS Y11, Y9, Y5
	VFMADD231PS Y12, Y8, Y6
	VFMADD231PS Y13, Y9, Y7
	ADDQ $64, BX
	ADDQ $32, AX
	ADDQ $32, R12
	ADDQ $32, R13
	ADDQ $32, R14
	SUBQ $16, R11
	JMP hdot4x16

hdot4x8:
	TESTQ R11, R11
	JZ hdot4sum
	VMOVUPS (BX), Y8
	VCVTPH2PS (AX), Y10
	VCVTPH2PS (R12), Y12
	VFMADD231PS Y10, Y8, Y0
	VFMADD231PS Y12, Y8, Y2
	VCVTPH2PS (R13), Y10
	VCVTPH2PS (R14), Y12
	VFMADD231PS Y10, Y8, Y4
	VFMADD231PS Y12, Y8, Y6

hdot4sum:
	DOT4SUM
	ADDQ $16, DI
	ADDQ $16, R8
	SUBQ $4, R9
	JNZ hdot4key
	JMP hdotdone

hdotkey:
	MOVLQSX (R8), AX
	IMULQ R10, AX
	ADDQ DX, AX
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	MOVQ SI, BX
	MOVQ CX, R11

hdot16:
	CMPQ R11, $16
	JLT hdot8
	VMOVUPS (BX), Y2
	VMOVUPS 32(BX), Y3
	VCVTPH2PS (AX), Y4
	VCVTPH2PS 16(AX), Y5
	VFMADD231PS Y4, Y2, Y0
	VFMADD231PS Y5, Y3, Y1
	ADDQ $64, BX
	ADDQ $32, AX
	SUBQ $16, R11
	JMP hdot16

hdot8:
	TESTQ R11, R11
	JZ hdotsum
	VMOVUPS (BX), Y2
	VCVTPH2PS (AX), Y4
	VFMADD231PS Y4, Y2, Y0

hdotsum:
	VADDPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMULSS X15, X0, X0
	VMOVSS X0, (DI)
	ADDQ $4, DI
	ADDQ $4, R8
	DECQ R9
	JNZ hdotkey

hdotdone:
	VZEROUPPER
	RET

// func AxpyRowsHalfAVX2(out *float32, dh int, base *uint16, idx *int32, p *float32, n int, stride int)
//
// out[k] += Σ_{j<n} p[j]·half(base[idx[j]·stride + k]) for k < dh (a
// positive multiple of 32), in order of j, skipping p[j] == 0 as
// axpyRowsAVX2 does; stride in halves.
TEXT ·AxpyRowsHalfAVX2(SB), NOSPLIT, $0-56
	MOVQ out+0(FP), DI
	MOVQ dh+8(FP), CX
	MOVQ base+16(FP), DX
	MOVQ idx+24(FP), R8
	MOVQ p+32(FP), SI
	MOVQ n+40(FP), R9
	MOVQ stride+48(FP), R10
	SHLQ $1, R10
	TESTQ R9, R9
	JZ haxpydone
	VXORPS X13, X13, X13

haxpychunk:
	CMPQ CX, $64
	JLT haxpy32

	// 64 columns per pass while 64 remain: eight independent accumulators
	// keep both FMA pipes busy where four wait on their own latency; each
	// column sees the same FMAs in the same key order, so the same bits
	AXPY64START

haxpy64key:
	VMOVSS (R13), X14
	VUCOMISS X13, X14
	JPS haxpy64use
	JEQ haxpy64next

haxpy64use:
	VBROADCASTSS (R13), Y15
	MOVLQSX (R12), AX
	IMULQ R10, AX
	ADDQ DX, AX
	VCVTPH2PS (AX), Y8
	VCVTPH2PS 16(AX), Y9
	VCVTPH2PS 32(AX), Y10
	VCVTPH2PS 48(AX), Y11
	VFMADD231PS Y8, Y15, Y0
	VFMADD231PS Y9, Y15, Y1
	VFMADD231PS Y10, Y15, Y2
	VFMADD231PS Y11, Y15, Y3
	VCVTPH2PS 64(AX), Y8
	VCVTPH2PS 80(AX), Y9
	VCVTPH2PS 96(AX), Y10
	VCVTPH2PS 112(AX), Y11
	VFMADD231PS Y8, Y15, Y4
	VFMADD231PS Y9, Y15, Y5
	VFMADD231PS Y10, Y15, Y6
	VFMADD231PS Y11, Y15, Y7

haxpy64next:
	ADDQ $4, R12
	ADDQ $4, R13
	DECQ R11
	JNZ haxpy64key
	AXPY64END
	ADDQ $256, DI
	ADDQ $128, DX
	SUBQ $64, CX
	JNZ haxpychunk
	JMP haxpydone

haxpy32:
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	MOVQ R8, R12
	MOVQ SI, R13
	MOVQ R9, R11

haxpykey:
	VMOVSS (R13), X14
	VUCOMISS X13, X14
	JPS haxpyuse
	JEQ haxpynext

haxpyuse:
	VBROADCASTSS (R13), Y15
	MOVLQSX (R12), AX
	IMULQ R10, AX
	ADDQ DX, AX
	VCVTPH2PS (AX), Y4
	VCVTPH2PS 16(AX), Y5
	VCVTPH2PS 32(AX), Y6
	VCVTPH2PS 48(AX), Y7
	VFMADD231PS Y4, Y15, Y0
	VFMADD231PS Y5, Y15, Y1
	VFMADD231PS Y6, Y15, Y2
	VFMADD231PS Y7, Y15, Y3

haxpynext:
	ADDQ $4, R12
	ADDQ $4, R13
	DECQ R11
	JNZ haxpykey
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, DI
	ADDQ $64, DX
	SUBQ $32, CX
	JNZ haxpychunk

haxpydone:
	VZEROUPPER
	RET

// func HalvesF16C(dst *uint16, src *float32, n int)
//
// dst[k] = half(src[k]) rounded to nearest even, for k < n (a positive
// multiple of 8).
TEXT ·HalvesF16C(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX

halvesloop:
	VMOVUPS (SI), Y0
	VCVTPS2PH $0, Y0, (DI)
	ADDQ $32, SI
	ADDQ $16, DI
	SUBQ $8, CX
	JNZ halvesloop
	VZEROUPPER
	RET
