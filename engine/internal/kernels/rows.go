package kernels

// Gathered dot products and axpys of decoding attention over a float32
// cache: keys and values sit in cache rows found through an index, so
// there is no matrix for BLAS. AVX2 assembly (rows_amd64.s) where the
// widths allow, Go loops (the references) elsewhere.

// GatherRowsVectorized reports whether GatherScores and GatherSum run
// their assembly for rows width floats wide (width a multiple of 32).
func GatherRowsVectorized(width int) bool { return avx2 && width%32 == 0 }

// GatherScores sets p[j] = scale·(q · data[idx[j]·ld+col :][:len(q)]).
func GatherScores(p, q, data []float32, col, ld int, idx []int32, scale float32) {
	if avx2 && len(q)%8 == 0 && len(idx) > 0 {
		DotRowsAVX2(&q[0], len(q), &data[col], &idx[0], len(idx), ld, &p[0], scale)
		return
	}
	GatherScoresGo(p, q, data, col, ld, idx, scale)
}

// GatherScoresGo is GatherScores in Go.
func GatherScoresGo(p, q, data []float32, col, ld int, idx []int32, scale float32) {
	for j, r := range idx {
		off := int(r)*ld + col
		p[j] = scale * Dot(q, data[off:off+len(q)])
	}
}

// GatherSum adds Σ_j p[j]·data[idx[j]·ld+col :][:len(out)] to out.
func GatherSum(out, p, data []float32, col, ld int, idx []int32) {
	if avx2 && len(out)%32 == 0 && len(idx) > 0 {
		AxpyRowsAVX2(&out[0], len(out), &data[col], &idx[0], &p[0], len(idx), ld)
		return
	}
	GatherSumGo(out, p, data, col, ld, idx)
}

// GatherSumGo is GatherSum in Go.
func GatherSumGo(out, p, data []float32, col, ld int, idx []int32) {
	for j, r := range idx {
		if p[j] != 0 {
			off := int(r)*ld + col
			Axpy(out, data[off:off+len(out)], p[j])
		}
	}
}
