package blas

import (
	"runtime"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// goBackend is gonum's pure-Go sgemm; gonum parallelises large products
// itself.
type goBackend struct{}

var gonumImpl gonum.Implementation

func (goBackend) Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	gonumImpl.Sgemm(tr(transA), tr(transB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func tr(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

func (goBackend) Name() string { return "pure-Go fallback (gonum sgemm)" }

func (goBackend) Threads() int { return runtime.GOMAXPROCS(0) }
