// The row pointers of the AVX-512 packed kernels (sgemm_packed_avx512_amd64.s
// and its two-panel loop, sgemm_packed_wide_avx512_amd64.s): a tile's rows
// 0-2 at SI, SI+DX, SI+2DX and rows 3-5 at R9, R9+DX, R9+2DX from its first
// row at R12 (DX the row stride in bytes); for 12 rows, rows 6-8 at R10...
// and rows 9-11 at R11...

#define ROWS6 \
	MOVQ R12, SI \
	LEAQ (SI)(DX*2), R9 \
	ADDQ DX, R9

#define ROWS12 \
	ROWS6 \
	LEAQ (R9)(DX*2), R10 \
	ADDQ DX, R10 \
	LEAQ (R10)(DX*2), R11 \
	ADDQ DX, R11
