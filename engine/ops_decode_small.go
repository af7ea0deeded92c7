package engine

// blockRunSmall is BlockAttention's (run, head) job for runs of few rows
// (a sentence's beams): per-row dot products and axpys over the block's
// keys with the AVX2 gather kernels, instead of two BLAS calls whose fixed
// cost (a cgo call, OpenBLAS's packing) outweighs a 5×tk×64 product.
func blockRunSmall(q []float32, ldq, start, m, h, dh, d int, scale float32, kv KVBlocks, b int, idx []int32,
	p []float32, ldp int, ctx []float32) {
	tk := kv.TK
	for i := 0; i < m; i++ {
		row := start + i
		qi := q[row*ldq+h*dh : row*ldq+(h+1)*dh]
		pi := p[i*ldp : i*ldp+tk]
		gatherScores(pi, qi, kv.Data, kv.KCol+h*dh, kv.LD, idx, scale)
		maskedSoftmax(pi, 1, tk, kv.Pad, b, false)
		out := ctx[row*d+h*dh : row*d+(h+1)*dh]
		clear(out)
		gatherSum(out, pi, kv.Data, kv.VCol+h*dh, kv.LD, idx)
	}
}

// smallRunRows is the largest run blockRunSmall handles.
const smallRunRows = 8

// blockKeyRows lists, block after block, the global row of each key.
func blockKeyRows(blocks, tk int) []int32 {
	idx := make([]int32, blocks*tk)
	for i := range idx {
		idx[i] = int32(i)
	}
	return idx
}
