//go:build !amd64 || purego

package kernels

func AdamAVX2(w, grad, m, v *float32, n int, k *AdamConsts) { panic("kernels: AdamAVX2 without amd64") }

func AddRowsAVX2(acc, src *float32, rows, ld, cols int) { panic("kernels: AddRowsAVX2 without amd64") }

func TransposeStripAVX(dst *float32, ldd int, src *float32, lds int, blocks int) {
	panic("kernels: TransposeStripAVX without amd64")
}

func ExpSumsAVX2(dst, x *float32, n int, shift float32, acc *[16]float64) {
	panic("kernels: ExpSumsAVX2 without amd64")
}

func ExpSumsAVX512(dst, x *float32, n int, shift float32, acc *[16]float64) {
	panic("kernels: ExpSumsAVX512 without amd64")
}

func SigmoidAVX2(dst, x *float32, n int) { panic("kernels: SigmoidAVX2 without amd64") }

func TanhAVX2(dst, x *float32, n int) { panic("kernels: TanhAVX2 without amd64") }

func Sum4AVX2(x *float32, n int, out *[4]float64) { panic("kernels: Sum4AVX2 without amd64") }

func Sqdev4AVX2(x *float32, n int, mean float64, out *[4]float64) {
	panic("kernels: Sqdev4AVX2 without amd64")
}

func LnSums4AVX2(gd, h *float32, n int, out *[8]float64) { panic("kernels: LnSums4AVX2 without amd64") }

func LnDx4AVX2(dx, gd, h *float32, n int, m1, m2, rs float64) {
	panic("kernels: LnDx4AVX2 without amd64")
}

func LnBackRowAVX2(x, dy, h, accG, accB *float32, n int, m, rs float32) {
	panic("kernels: LnBackRowAVX2 without amd64")
}

func NormAffineAVX2(y, x, gain, bias *float32, n int, m, rs float32) {
	panic("kernels: NormAffineAVX2 without amd64")
}

func DropMaskAVX2(mask *uint32, words int, z uint64, threshold uint32) {
	panic("kernels: DropMaskAVX2 without amd64")
}

func AddMaskedAVX2(y, x, f *float32, mask *uint32, words int, scale float32) {
	panic("kernels: AddMaskedAVX2 without amd64")
}

func AccMaskedAVX2(dst, src *float32, mask *uint32, words int, scale float32) {
	panic("kernels: AccMaskedAVX2 without amd64")
}
