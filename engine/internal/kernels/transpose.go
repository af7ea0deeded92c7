package kernels

// TransposeStripGo is TransposeStripAVX's reference: the 8 rows of src
// (lds apart) and their first 8·blocks columns written to dst transposed
// (column c of src becomes row c of dst, ldd apart).
func TransposeStripGo(dst []float32, ldd int, src []float32, lds, blocks int) {
	for r := 0; r < 8; r++ {
		for c, x := range src[r*lds : r*lds+8*blocks] {
			dst[c*ldd+r] = x
		}
	}
}
