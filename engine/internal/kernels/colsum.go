package kernels

// AddRows adds rows [0, rows) of src (ld floats apart) to acc[:len(acc)]
// in row order: per column the additions a row-at-a-time axpy with factor
// 1 makes, so the same bits on every path; columns in strips of 32 and 8
// held in AVX2 registers across the rows where that runs.
func AddRows(acc, src []float32, rows, ld int) {
	d := len(acc)
	if rows == 0 || d == 0 {
		return
	}
	_ = src[(rows-1)*ld+d-1]
	j := 0
	if avx2 && d >= 8 {
		j = d &^ 7
		AddRowsAVX2(&acc[0], &src[0], rows, ld, j)
	}
	addRowsGo(acc, src, rows, ld, j)
}

// AddRowsGo is AddRows's reference.
func AddRowsGo(acc, src []float32, rows, ld int) { addRowsGo(acc, src, rows, ld, 0) }

// addRowsGo adds columns [from, len(acc)).
func addRowsGo(acc, src []float32, rows, ld, from int) {
	d := len(acc)
	for r := 0; r < rows; r++ {
		row := src[r*ld : r*ld+d]
		for c := from; c < d; c++ {
			acc[c] += row[c]
		}
	}
}
