//go:build !purego

#include "textflag.h"

// func AdamAVX2(w, grad, m, v *float32, n int, k *AdamConsts)
//
// One Adam step on n (a multiple of 8) elements, 8 at a time, with the
// float32 operations of adamScalar in its order (no fused multiply-adds:
// they would round differently). k: b1, 1-b1, b2, 1-b2, step size, decay,
// eps, l2.
TEXT ·AdamAVX2(SB), NOSPLIT, $0-48
	MOVQ w+0(FP), DI
	MOVQ grad+8(FP), SI
	MOVQ m+16(FP), R8
	MOVQ v+24(FP), R9
	MOVQ n+32(FP), CX
	MOVQ k+40(FP), AX
	VBROADCASTSS 0(AX), Y8   // b1
	VBROADCASTSS 4(AX), Y9   // 1-b1
	VBROADCASTSS 8(AX), Y10  // b2
	VBROADCASTSS 12(AX), Y11 // 1-b2
	VBROADCASTSS 16(AX), Y12 // step size
	VBROADCASTSS 20(AX), Y13 // decay
	VBROADCASTSS 24(AX), Y14 // eps
	VBROADCASTSS 28(AX), Y15 // l2
	SHRQ $3, CX
	JZ   done

loop:
	VMOVUPS (DI), Y0         // x
	VMULPS  Y15, Y0, Y4      // l2·x
	VADDPS  (SI), Y4, Y1     // g + l2·x
	VMULPS  (R8), Y8, Y2     // b1·m
	VMULPS  Y1, Y9, Y5       // (1-b1)·g
	VADDPS  Y5, Y2, Y2       // m
	VMOVUPS Y2, (R8)
	VMULPS  (R9), Y10, Y3    // b2·v
	VMULPS  Y1, Y11, Y6      // (1-b2)·g
	VMULPS  Y1, Y6, Y6       // ·g
	VADDPS  Y6, Y3, Y3       // v
	VMOVUPS Y3, (R9)
	VMULPS  Y13, Y0, Y0      // x·decay
	VMULPS  Y2, Y12, Y4      // step size·m
	VSQRTPS Y3, Y7
	VADDPS  Y14, Y7, Y7      // √v + eps
	VDIVPS  Y7, Y4, Y4
	VSUBPS  Y4, Y0, Y0
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	ADDQ $32, R8
	ADDQ $32, R9
	DECQ CX
	JNZ  loop

done:
	VZEROUPPER
	RET
