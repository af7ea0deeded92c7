// Package blas is strata's matrix-product backend: single-precision GEMM on
// row-major matrices through OpenBLAS (or another CBLAS) loaded at run time
// with purego, so the build needs no C toolchain, and gonum's pure-Go sgemm
// when no such library is found.
//
// The selection happens once, on first use. STRATA_BLAS=go forces the
// fallback; STRATA_BLAS=/path/to/libcblas.so picks a library.
package blas

import (
	"os"
	"sync"
)

// Backend multiplies row-major float32 matrices:
// C = alpha·op(A)·op(B) + beta·C, op(X) = X or Xᵀ.
// A is m×k after op, B is k×n after op, C is m×n; lda/ldb/ldc are row strides.
type Backend interface {
	Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int,
		b []float32, ldb int, beta float32, c []float32, ldc int)
	// Name says what is in use, e.g. "openblas (/usr/lib/.../libopenblas.so.0, Haswell)".
	Name() string
	// Threads is the number of threads the backend uses for one product.
	Threads() int
}

var (
	once    sync.Once
	current Backend
)

// Default returns the process-wide backend, choosing it on first call.
func Default() Backend {
	once.Do(func() {
		current = choose(os.Getenv("STRATA_BLAS"))
	})
	return current
}

// Go returns the pure-Go backend regardless of what is installed (tests use
// it to compare backends).
func Go() Backend { return goBackend{} }

func choose(env string) Backend {
	if env == "go" {
		return goBackend{}
	}
	paths := libraryCandidates
	if env != "" {
		paths = []string{env}
	}
	for _, p := range paths {
		if b, err := openCBLAS(p); err == nil {
			return b
		}
	}
	return goBackend{}
}

// Sgemm runs one product on the default backend.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	Default().Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// SetThreads sets the number of threads the backend uses for one product
// (openblas_set_num_threads). It reports false when the backend has no such
// control (the gonum fallback parallelises each product over GOMAXPROCS
// goroutines, and other CBLAS libraries may lack the call).
func SetThreads(n int) bool {
	if b, ok := Default().(*cblasBackend); ok && b.setNThreads != nil {
		b.setNThreads(int32(max(n, 1)))
		return true
	}
	return false
}
