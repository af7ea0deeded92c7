package engine

// Training's forward products on the packed float32 kernel
// (sgemm_packed.go). OpenBLAS packs both operands of every call; for the
// narrow models strata trains on two cores (d = 128-256) that packing and
// its blocking for large square products leave it at 50-80% of the core's
// peak on products like 4096×128×512, where the register-tiled kernel over
// row blocks runs near the peak (docs/performance.md, "Training's forward
// products on the packed kernel"). A weight changes at every update, so a
// recording graph packs it for each product into a buffer it recycles at
// once: nothing to invalidate, and the pack costs one pass over the weight
// against n passes of multiply-adds. The input's gradient dY·W is the same
// kind of product by Wᵀ, whose panels are 16-column strips of W (the kernel
// adds to the gradient there), where W has at most packedGradMaxK rows. The
// weight's gradient dYᵀ·X stays on OpenBLAS: its inner dimension is the
// batch's thousands of rows, which OpenBLAS blocks and this kernel does not.

// trainPacked reports whether recording graphs multiply by weights on the
// packed kernel: where an assembly kernel exists and STRATA_SGEMM does not
// ask for OpenBLAS.
func trainPacked() bool { return f32Kernel.tile != nil }

// linearTrainPacked sets y = x·Wᵀ + bias (bias nil for none).
func (g *Graph) linearTrainPacked(x, w *Tensor, bias []float32, y *Tensor) {
	rows, cols, n := w.shape[0], w.shape[1], x.Rows()
	np := (rows + f32PanelCols - 1) / f32PanelCols
	buf := g.arena.get(np * cols * f32PanelCols)
	g.parallel(np, cols*f32PanelCols, func(_, lo, hi int) {
		packPanels(buf, w.Data, rows, cols, lo, hi)
	})
	p := PackedF32{Rows: rows, Cols: cols, panels: buf}
	// traced as the OpenBLAS product it replaces, for the floor replay
	traceGemm(GemmCall{false, true, n, rows, cols, cols, cols, rows, true})
	g.packedProduct(f32Kernel, x.Data, n, &p, bias, y.Data)
	g.arena.recycle(buf)
}

// packedGradMaxK is the most outputs of a weight whose input gradient
// goes through the packed kernel: a panel of 16×1,024 floats is 64 KB,
// and beyond that (a vocabulary's 8,000 rows) it no longer stays in L2
// while the row blocks pass, where OpenBLAS blocks the inner dimension.
const packedGradMaxK = 1024

// gradXPacked reports whether the input gradient of a product by a weight
// with out rows runs on the packed kernel.
func gradXPacked(out int) bool { return trainPacked() && out <= packedGradMaxK }

// gradXTrainPacked adds dy·W to dx (n×in) for W (out×in) and dy (n×out).
func (g *Graph) gradXTrainPacked(dy []float32, n int, w *Tensor, dx []float32) {
	out, in := w.shape[0], w.shape[1]
	np := (in + f32PanelCols - 1) / f32PanelCols
	buf := g.arena.get(np * out * f32PanelCols)
	g.parallel(np, out*f32PanelCols, func(_, lo, hi int) {
		packColumnPanels(buf, w.Data, out, in, lo, hi)
	})
	p := PackedF32{Rows: in, Cols: out, panels: buf}
	traceGemm(GemmCall{false, false, n, in, out, out, in, in, true})
	g.packedAdd(f32Kernel, dy, n, &p, dx)
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
			transpose(panel, w[r0*cols:], f32PanelCols, cols, cols)
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
