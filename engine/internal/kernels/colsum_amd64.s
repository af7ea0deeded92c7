//go:build !purego

#include "textflag.h"

// func AddRowsAVX2(acc, src *float32, rows, ld, cols int)
//
// acc[j] += src[r·ld + j] for r = 0, 1, ..., rows-1 in turn, j < cols
// (a multiple of 8; rows >= 1; ld in floats): a linear layer's bias
// gradient, the column sums of dY. Each column is one chain of additions
// in row order, the additions a row-at-a-time axpy with factor 1 makes,
// so the same bits; a strip of 32 (then 8) columns stays in registers
// across all the rows.
TEXT ·AddRowsAVX2(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), R8
	MOVQ ld+24(FP), DX
	SHLQ $2, DX
	MOVQ cols+32(FP), CX

strip32:
	CMPQ CX, $32
	JLT  strip8
	VMOVUPS (DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	MOVQ SI, BX
	MOVQ R8, AX

loop32:
	VADDPS (BX), Y0, Y0
	VADDPS 32(BX), Y1, Y1
	VADDPS 64(BX), Y2, Y2
	VADDPS 96(BX), Y3, Y3
	ADDQ DX, BX
	DECQ AX
	JNZ  loop32
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, DI
	ADDQ $128, SI
	SUBQ $32, CX
	JMP  strip32

strip8:
	CMPQ CX, $8
	JLT  done
	VMOVUPS (DI), Y0
	MOVQ SI, BX
	MOVQ R8, AX

loop8:
	VADDPS (BX), Y0, Y0
	ADDQ DX, BX
	DECQ AX
	JNZ  loop8
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $8, CX
	JMP  strip8

done:
	VZEROUPPER
	RET
