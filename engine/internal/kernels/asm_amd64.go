//go:build !purego

package kernels

// Declarations of the assembly kernels; asm_other.go stubs them for purego
// builds and other architectures, where the guards keep them from running.
// The layer-norm, exp-sum and dropout routines are called by their
// dispatching functions (norm.go, expsum.go, dropout.go), beside the Go
// references the tests compare them with.

// AdamAVX2 is in adam_amd64.s (AdamGo is its reference).
//
//go:noescape
func AdamAVX2(w, grad, m, v *float32, n int, k *AdamConsts)

// AddRowsAVX2 is in colsum_amd64.s (AddRowsGo is its reference).
//
//go:noescape
func AddRowsAVX2(acc, src *float32, rows, ld, cols int)

// TransposeStripAVX is in transpose_amd64.s (TransposeStripGo is its
// reference).
//
//go:noescape
func TransposeStripAVX(dst *float32, ldd int, src *float32, lds int, blocks int)

// ExpSumsAVX2 is in expsum_amd64.s.
//
//go:noescape
func ExpSumsAVX2(dst, x *float32, n int, shift float32, acc *[16]float64)

// ExpSumsAVX512 is ExpSumsAVX2 for n a multiple of 16 on AVX-512, to the
// bit (expsum_amd64.s).
//
//go:noescape
func ExpSumsAVX512(dst, x *float32, n int, shift float32, acc *[16]float64)

// SigmoidAVX2 is in sigmoid_amd64.s (SigmoidGo is its reference, to the
// bit).
//
//go:noescape
func SigmoidAVX2(dst, x *float32, n int)

// TanhAVX2 is in tanh_amd64.s (TanhGo is its reference, to the bit).
//
//go:noescape
func TanhAVX2(dst, x *float32, n int)

// Sum4AVX2, Sqdev4AVX2, LnSums4AVX2 and LnDx4AVX2 are in norm_amd64.s.
//
//go:noescape
func Sum4AVX2(x *float32, n int, out *[4]float64)

//go:noescape
func Sqdev4AVX2(x *float32, n int, mean float64, out *[4]float64)

//go:noescape
func LnSums4AVX2(gd, h *float32, n int, out *[8]float64)

//go:noescape
func LnDx4AVX2(dx, gd, h *float32, n int, m1, m2, rs float64)

//go:noescape
func LnBackRowAVX2(x, dy, h, accG, accB *float32, n int, m, rs float32)

//go:noescape
func NormAffineAVX2(y, x, gain, bias *float32, n int, m, rs float32)

// DropMaskAVX2, AddMaskedAVX2 and AccMaskedAVX2 are in dropout_amd64.s.
//
//go:noescape
func DropMaskAVX2(mask *uint32, words int, z uint64, threshold uint32)

//go:noescape
func AddMaskedAVX2(y, x, f *float32, mask *uint32, words int, scale float32)

//go:noescape
func AccMaskedAVX2(dst, src *float32, mask *uint32, words int, scale float32)
