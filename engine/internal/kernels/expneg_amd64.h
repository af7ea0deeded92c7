// ExpNeg (expsum.go) eight lanes at a time with AVX2, shared by the
// kernels that must reproduce it to the bit (sigmoid_amd64.s,
// tanh_amd64.s): every operation of ExpNeg is one unfused float32
// instruction, in its order, so the lanes hold ExpNeg's bits.

// ExpNeg's constants as float32 bit patterns, in its order, then 1 and
// the exponent bias of the 2^k scale. A file-local symbol: each file that
// includes this header has its own copy.
DATA expc<>+0(SB)/4, $0x3fb8aa3b  // log2(e)
DATA expc<>+4(SB)/4, $0x3f000000  // 0.5
DATA expc<>+8(SB)/4, $0x3f318000  // ln2 high part
DATA expc<>+12(SB)/4, $0xb95e8083 // ln2 correction
DATA expc<>+16(SB)/4, $0xc2aeac4f // minX = ln 2^-126
DATA expc<>+20(SB)/4, $0x39506967 // P: hi = (c0·r + c1)·r² + (c2·r + c3)
DATA expc<>+24(SB)/4, $0x3ab743ce // c1
DATA expc<>+28(SB)/4, $0x3c088908 // c2
DATA expc<>+32(SB)/4, $0x3d2aa9c1 // c3
DATA expc<>+36(SB)/4, $0x3e2aaaaa // lo = c4·r + c5
DATA expc<>+40(SB)/4, $0x3f000000 // c5
DATA expc<>+44(SB)/4, $0x3f800000 // 1
DATA expc<>+48(SB)/4, $127        // exponent bias (int32)
GLOBL expc<>(SB), RODATA|NOPTR, $52

// EXPNEG_AVX2(X, FLUSH, K, R2, P, T1, T2) sets P = ExpNeg(X) for X ≤ 0
// (NaN lanes are the caller's to select): FLUSH marks the lanes below
// minX, whose result is 0; then, X clamped to minX,
//   k = trunc(X·log2e - 0.5), n = float(k)
//   r = X - n·ln2hi - n·ln2lo (left in X), R2 = r²
//   hi = (c0·r + c1)·r² + (c2·r + c3), lo = c4·r + c5
//   P = (((hi·r² + lo)·r² + r) + 1)·2^k
// K, T1 and T2 are scratch. (A macro cannot hold comments: this one.)
#define EXPNEG_AVX2(X, FLUSH, K, R2, P, T1, T2) \
	VBROADCASTSS expc<>+16(SB), T1; \
	VCMPPS $1, T1, X, FLUSH; \
	VMAXPS X, T1, X; \
	VBROADCASTSS expc<>+0(SB), K; \
	VMULPS K, X, K; \
	VBROADCASTSS expc<>+4(SB), T1; \
	VSUBPS T1, K, K; \
	VCVTTPS2DQ K, K; \
	VCVTDQ2PS K, R2; \
	VBROADCASTSS expc<>+8(SB), T1; \
	VMULPS T1, R2, T1; \
	VSUBPS T1, X, X; \
	VBROADCASTSS expc<>+12(SB), T1; \
	VMULPS T1, R2, T1; \
	VSUBPS T1, X, X; \
	VMULPS X, X, R2; \
	VBROADCASTSS expc<>+20(SB), P; \
	VMULPS X, P, P; \
	VBROADCASTSS expc<>+24(SB), T1; \
	VADDPS T1, P, P; \
	VMULPS R2, P, P; \
	VBROADCASTSS expc<>+28(SB), T1; \
	VMULPS X, T1, T1; \
	VBROADCASTSS expc<>+32(SB), T2; \
	VADDPS T2, T1, T1; \
	VADDPS T1, P, P; \
	VBROADCASTSS expc<>+36(SB), T1; \
	VMULPS X, T1, T1; \
	VBROADCASTSS expc<>+40(SB), T2; \
	VADDPS T2, T1, T1; \
	VMULPS R2, P, P; \
	VADDPS T1, P, P; \
	VMULPS R2, P, P; \
	VADDPS X, P, P; \
	VBROADCASTSS expc<>+44(SB), T1; \
	VADDPS T1, P, P; \
	VPBROADCASTD expc<>+48(SB), T1; \
	VPADDD T1, K, K; \
	VPSLLD $23, K, K; \
	VMULPS K, P, P; \
	VANDNPS P, FLUSH, P
