//go:build !amd64 || purego

package engine

func expSumsAVX2(dst, x *float32, n int, shift float32, acc *[16]float64) {
	panic("engine: expSumsAVX2 without amd64")
}

func expSumsAVX512(dst, x *float32, n int, shift float32, acc *[16]float64) {
	panic("engine: expSumsAVX512 without amd64")
}

func dotRowsAVX2(q *float32, dh int, base *float32, idx *int32, n int, stride int, out *float32, scale float32) {
	panic("engine: dotRowsAVX2 without amd64")
}

func axpyRowsAVX2(out *float32, dh int, base *float32, idx *int32, p *float32, n int, stride int) {
	panic("engine: axpyRowsAVX2 without amd64")
}

func sum4AVX2(x *float32, n int, out *[4]float64) { panic("engine: sum4AVX2 without amd64") }

func sqdev4AVX2(x *float32, n int, mean float64, out *[4]float64) {
	panic("engine: sqdev4AVX2 without amd64")
}

func lnSums4AVX2(gd, h *float32, n int, out *[8]float64) { panic("engine: lnSums4AVX2 without amd64") }

func lnDx4AVX2(dx, gd, h *float32, n int, m1, m2, rs float64) {
	panic("engine: lnDx4AVX2 without amd64")
}

func lnBackRowAVX2(x, dy, h, accG, accB *float32, n int, m, rs float32) {
	panic("engine: lnBackRowAVX2 without amd64")
}

func normAffineAVX2(y, x, gain, bias *float32, n int, m, rs float32) {
	panic("engine: normAffineAVX2 without amd64")
}

func dropMaskAVX2(mask *uint32, words int, z uint64, threshold uint32) {
	panic("engine: dropMaskAVX2 without amd64")
}

func addMaskedAVX2(y, x, f *float32, mask *uint32, words int, scale float32) {
	panic("engine: addMaskedAVX2 without amd64")
}

func accMaskedAVX2(dst, src *float32, mask *uint32, words int, scale float32) {
	panic("engine: accMaskedAVX2 without amd64")
}
