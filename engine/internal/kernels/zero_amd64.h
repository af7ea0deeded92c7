// Clearing a kernel's accumulator registers before its inner loop, shared
// by the register-tiled kernels (sgemm_packed_amd64.s, attngemm_amd64.s,
// rows_amd64.h): the tiles keep their sums in the low Y registers.

#define ZERO_Y0_Y3 \
	VXORPS Y0, Y0, Y0 \
	VXORPS Y1, Y1, Y1 \
	VXORPS Y2, Y2, Y2 \
	VXORPS Y3, Y3, Y3

#define ZERO_Y0_Y7 \
	ZERO_Y0_Y3 \
	VXORPS Y4, Y4, Y4 \
	VXORPS Y5, Y5, Y5 \
	VXORPS Y6, Y6, Y6 \
	VXORPS Y7, Y7, Y7

#define ZERO_Y0_Y11 \
	ZERO_Y0_Y7 \
	VXORPS Y8, Y8, Y8 \
	VXORPS Y9, Y9, Y9 \
	VXORPS Y10, Y10, Y10 \
	VXORPS Y11, Y11, Y11
