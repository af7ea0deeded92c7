//go:build !purego

#include "textflag.h"

// func TransposeStripAVX(dst *float32, ldd int, src *float32, lds int, blocks int)
//
// Transposes an 8-row strip of src (rows lds floats apart) block by block:
// the 8×8 block at columns [8b, 8b+8) of the strip is written to dst rows
// [8b, 8b+8) (ldd floats apart), columns [0, 8), for b < blocks. Pure data
// movement (unpack, shuffle, lane permute), so the result is exact.
TEXT ·TransposeStripAVX(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ ldd+8(FP), R8
	SHLQ $2, R8
	MOVQ src+16(FP), SI
	MOVQ lds+24(FP), R9
	SHLQ $2, R9
	MOVQ blocks+32(FP), CX
	TESTQ CX, CX
	JZ done
	LEAQ (R9)(R9*2), R10 // 3·lds
	LEAQ (R8)(R8*2), R11 // 3·ldd

loop:
	// rows 0-3 and 4-7 of the block
	MOVQ SI, AX
	VMOVUPS (AX), Y0
	VMOVUPS (AX)(R9*1), Y1
	VMOVUPS (AX)(R9*2), Y2
	VMOVUPS (AX)(R10*1), Y3
	LEAQ (AX)(R9*4), AX
	VMOVUPS (AX), Y4
	VMOVUPS (AX)(R9*1), Y5
	VMOVUPS (AX)(R9*2), Y6
	VMOVUPS (AX)(R10*1), Y7

	// interleave pairs of rows
	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15

	// gather four rows' elements per 128-bit lane
	VSHUFPS $0x44, Y10, Y8, Y0
	VSHUFPS $0xEE, Y10, Y8, Y1
	VSHUFPS $0x44, Y11, Y9, Y2
	VSHUFPS $0xEE, Y11, Y9, Y3
	VSHUFPS $0x44, Y14, Y12, Y4
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7

	// join the low lanes (output rows 0-3) and the high lanes (4-7)
	VPERM2F128 $0x20, Y4, Y0, Y8
	VPERM2F128 $0x20, Y5, Y1, Y9
	VPERM2F128 $0x20, Y6, Y2, Y10
	VPERM2F128 $0x20, Y7, Y3, Y11
	VPERM2F128 $0x31, Y4, Y0, Y12
	VPERM2F128 $0x31, Y5, Y1, Y13
	VPERM2F128 $0x31, Y6, Y2, Y14
	VPERM2F128 $0x31, Y7, Y3, Y15

	MOVQ DI, BX
	VMOVUPS Y8, (BX)
	VMOVUPS Y9, (BX)(R8*1)
	VMOVUPS Y10, (BX)(R8*2)
	VMOVUPS Y11, (BX)(R11*1)
	LEAQ (BX)(R8*4), BX
	VMOVUPS Y12, (BX)
	VMOVUPS Y13, (BX)(R8*1)
	VMOVUPS Y14, (BX)(R8*2)
	VMOVUPS Y15, (BX)(R11*1)

	ADDQ $32, SI
	LEAQ (DI)(R8*8), DI
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	RET
