package engine

// Training's forward products and input gradients on the packed float32
// kernel (sgemm_packed.go). OpenBLAS packs both operands of every call; for
// the narrow models strata trains on two cores (d = 128-512) that costs it
// 5-10% of a step against the register-tiled kernel walking L2-sized row
// blocks (docs/performance.md, "Training's products on the packed kernel").
// A weight changes at every update, so a recording graph packs it for each
// product into a buffer it recycles at once: nothing to invalidate, and the
// pack costs one pass over the weight against n rows of multiply-adds. The
// input's gradient dY·W is the same kind of product by Wᵀ, whose panels are
// 16-column strips of W (the kernel adds to the gradient there). The
// weight's gradient dYᵀ·X, whose inner dimension is the batch's thousands
// of rows, has kernels of its own (gradw.go).

// packedMaxK is the largest inner dimension a training product runs on the
// packed kernel with in one piece: a panel of 16×1,024 floats is 64 KB.
// Beyond that the kernel, which does not block the inner dimension, would
// stream the panels or the rows from L3, where OpenBLAS blocks them: a
// forward product of more inputs (an FFN's 2,048) runs on OpenBLAS, and
// the input gradient dY·W of more outputs (a vocabulary's 8,000) is summed
// over blocks of packedMaxK outputs (gradXTrainPacked).
const packedMaxK = 1024

// trainPacked reports whether a recording graph's product with inner
// dimension k runs on the packed kernel: where an assembly kernel exists,
// STRATA_SGEMM=blas does not ask for OpenBLAS, and k is at most packedMaxK.
func trainPacked(k int) bool { return f32Kernel.Tile != nil && k <= packedMaxK }

// trainPackedGradX reports whether a recording graph's input gradients run
// on the packed kernel: wherever it is in use, in blocks of packedMaxK.
func trainPackedGradX() bool { return f32Kernel.Tile != nil }

// linearTrainPacked sets y = x·Wᵀ + bias (bias nil for none).
func (g *Graph) linearTrainPacked(x, w *Tensor, bias []float32, y *Tensor) {
	rows, cols, n := w.shape[0], w.shape[1], x.Rows()
	// traced as the OpenBLAS product it replaces, for the floor replay
	traceGemm(GemmCall{false, true, n, rows, cols, cols, cols, rows, true})
	g.withTempPack(rows, cols, func(dst []float32, lo, hi int) { packPanels(dst, w.Data, rows, cols, lo, hi) },
		func(p *PackedF32) { g.packedProduct(f32Kernel, x.Data, n, p, bias, y.Data) })
}

// gradXTrainPacked adds dy·W to dx (n×in) for W (out×in) and dy (n×out).
// Past packedMaxK outputs (a vocabulary's thousands of rows) the sum runs
// over blocks of packedMaxK rows of W, each packed on its own and added to
// dx in turn (dy's columns of the block read in place, out floats apart):
// a block's panels stay in L2 as they would for a narrow layer, where one
// panel of all the rows (8,000×16 floats, 512 KB) would stream from L3.
//
// x is the layer's input: when it has no gradient buffer yet, the first
// block writes a new one instead of adding to zeros (the same sums;
// zeroing a buffer that the product then overwrites was 1% of a step).
func (g *Graph) gradXTrainPacked(dy []float32, n int, w, x *Tensor) {
	out, in := w.shape[0], w.shape[1]
	traceGemm(GemmCall{false, false, n, in, out, out, in, in, true})
	fresh := x.Grad == nil
	var dx []float32
	if fresh {
		dx = g.arena.get(x.Size())
		x.Grad, x.arenaGrad = dx, true
	} else {
		dx = g.grad(x)
	}
	for k0 := 0; k0 < out; k0 += packedMaxK {
		k, wb, dyb := min(packedMaxK, out-k0), w.Data[k0*in:], dy[k0:]
		add := k0 > 0 || !fresh
		g.withTempPack(in, k, func(dst []float32, lo, hi int) { packColumnPanels(dst, wb, k, in, lo, hi) },
			func(p *PackedF32) { g.packedRun(f32Kernel, dyb, out, n, p, nil, dx, add) })
	}
}

// withTempPack packs a rows×cols operand into an arena buffer (pack writes
// panels [lo, hi), in parallel over the graph's threads), runs use on it
// and recycles the buffer.
func (g *Graph) withTempPack(rows, cols int, pack func(dst []float32, lo, hi int), use func(p *PackedF32)) {
	np := (rows + f32PanelCols - 1) / f32PanelCols
	buf := g.arena.get(np * cols * f32PanelCols)
	g.parallel(np, cols*f32PanelCols, func(_, lo, hi int) { pack(buf, lo, hi) })
	use(&PackedF32{Rows: rows, Cols: cols, panels: buf})
	g.arena.recycle(buf)
}

// packColumnPanels writes panels [lo, hi) of the transpose of the
// rows×cols matrix w into dst in PackedF32's layout: panel p is columns
// [16p, 16p+16) of w, row after row, zero-padded past the last column.
func packColumnPanels(dst, w []float32, rows, cols, lo, hi int) {
	size := rows * f32PanelCols
	for p := lo; p < hi; p++ {
		panel, c0 := dst[p*size:(p+1)*size], p*f32PanelCols
		n := min(f32PanelCols, cols-c0)
		for r := 0; r < rows; r++ {
			copy(panel[r*f32PanelCols:r*f32PanelCols+n], w[r*cols+c0:r*cols+c0+n])
			clear(panel[r*f32PanelCols+n : (r+1)*f32PanelCols])
		}
	}
}

// packPanels writes panels [lo, hi) of the rows×cols matrix w into dst in
// PackedF32's layout: each whole panel is the transpose of 16 rows of w
// (AVX 8×8 blocks where available); a last partial panel is padded with
// zero rows.
func packPanels(dst, w []float32, rows, cols, lo, hi int) {
	size := cols * f32PanelCols
	for p := lo; p < hi; p++ {
		panel, r0 := dst[p*size:(p+1)*size], p*f32PanelCols
		if r0+f32PanelCols <= rows {
			transpose(panel, f32PanelCols, w[r0*cols:], f32PanelCols, cols, cols)
			continue
		}
		clear(panel)
		for r := r0; r < rows; r++ {
			for k, v := range w[r*cols : (r+1)*cols] {
				panel[k*f32PanelCols+r-r0] = v
			}
		}
	}
}
