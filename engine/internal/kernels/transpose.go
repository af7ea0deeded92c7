package kernels

// Transpose writes the rows×cols matrix src (rows ld apart) to dst as
// cols×rows with rows ldd apart (ldd >= rows), so that the products read
// Kᵀ and Vᵀ with unit stride; the ldd-rows padding columns of dst become
// zeros. With AVX the whole 8×8 blocks move through registers
// (transpose_amd64.s): the scalar loop's strided
// stores cost about as much as attention's products at a head width of 32.
func Transpose(dst []float32, ldd int, src []float32, rows, cols, ld int) {
	r0 := 0
	if avx2 && cols >= 8 && rows >= 8 {
		_ = src[(rows-1)*ld+cols-1] // the blocks stay inside both slices
		_ = dst[(cols-1)*ldd+rows-1]
		blocks := cols / 8
		for ; r0+8 <= rows; r0 += 8 {
			TransposeStripAVX(&dst[r0], ldd, &src[r0*ld], ld, blocks)
			transposeGo(dst, ldd, src, r0, r0+8, 8*blocks, cols, ld)
		}
	}
	transposeGo(dst, ldd, src, r0, rows, 0, cols, ld)
	if ldd > rows {
		for c := 0; c < cols; c++ {
			clear(dst[c*ldd+rows : (c+1)*ldd])
		}
	}
}

// transposeGo is transpose's scalar loop over rows [r0, r1) and columns
// [c0, c1).
func transposeGo(dst []float32, ldd int, src []float32, r0, r1, c0, c1, ld int) {
	for r := r0; r < r1; r++ {
		for c, x := range src[r*ld+c0 : r*ld+c1] {
			dst[(c0+c)*ldd+r] = x
		}
	}
}

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
