package engine

// cpuBackend is the engine's own backend: the graph's arena for storage,
// and the kernels of this package (assembly where the CPU has it, rows
// split over the graph's threads). Its op methods sit beside their ops in
// the ops_*.go files; this file has the storage and the small shared ones.
type cpuBackend struct{ g *Graph }

func (c cpuBackend) Name() string { return BackendCPU }

func (c cpuBackend) Alloc(n int) []float32 { return c.g.arena.get(n) }
func (c cpuBackend) Zeros(n int) []float32 { return c.g.arena.zeros(n) }
func (c cpuBackend) Free(buf []float32)    { c.g.arena.recycle(buf) }

func (c cpuBackend) Gemm(ta, tb bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, cm []float32, ldc int) {
	c.g.gemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, cm, ldc)
}

func (c cpuBackend) Axpy(dst, src []float32, a float32) {
	c.g.parallel(len(src), 2, func(_, lo, hi int) { axpy(dst[lo:hi], src[lo:hi], a) })
}

func (c cpuBackend) ScaleInPlace(x []float32, a float32) {
	c.g.parallel(len(x), 1, func(_, lo, hi int) {
		for i, v := range x[lo:hi] {
			x[lo+i] = a * v
		}
	})
}

func (c cpuBackend) Adam(u AdamStep, w, grad, m, v []float32, l2 float32) {
	AdamUpdate(u, w, grad, m, v, l2)
}

// dataOf is t's data, or nil for a nil tensor (an absent bias or gain).
func dataOf(t *Tensor) []float32 {
	if t == nil {
		return nil
	}
	return t.Data
}
