package engine

import (
	"sync"

	"github.com/strata-nmt/strata/engine/blas"
)

// Matrix products and threads.
//
// OpenBLAS's pthread build keeps worker threads that spin (sched_yield) for
// a while after every product. Between products the engine runs its own
// kernels on goroutines over the same cores, and the spinning workers took
// a fifth of a training step's CPU time from them in profiles. So when the
// backend lets us, the engine runs OpenBLAS single-threaded and splits each
// large product into row blocks itself, one goroutine per block: every core
// is then scheduled by Go alone. Each element of C is still computed by one
// call over the full inner dimension, so results depend only on the thread
// count, like every other kernel. The gonum fallback parallelises each
// product itself and is called whole.

var (
	blasOnce  sync.Once
	splitRows bool // the engine splits products (single-threaded backend)
)

// minSplitWork is the m·n·k below which a product is not split.
const minSplitWork = 1 << 21

func initBLAS() {
	blasOnce.Do(func() { splitRows = blas.SetThreads(1) })
}

// gemm computes C = alpha·op(A)·op(B) + beta·C on row-major matrices (see
// blas.Backend), splitting the rows of C over the graph's threads.
func (g *Graph) gemm(ta, tb bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	initBLAS()
	traceGemm(GemmCall{ta, tb, m, n, k, lda, ldb, ldc, true})
	if !splitRows || g.threads == 1 || m*n*k < minSplitWork || m < 2*g.threads {
		blas.Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	g.parallel(m, n*k, func(_, lo, hi int) {
		aOff := lo * lda // rows lo.. of A
		if ta {
			aOff = lo // columns lo.. of A
		}
		blas.Sgemm(ta, tb, hi-lo, n, k, alpha, a[aOff:], lda, b, ldb, beta, c[lo*ldc:], ldc)
	})
}

// gemm1 is one product on the calling goroutine, for callers that are
// already running in parallel (attention's per-head products).
func gemm1(ta, tb bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	initBLAS()
	traceGemm(GemmCall{ta, tb, m, n, k, lda, ldb, ldc, false})
	blas.Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
