package blas

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Library names tried in order. Debian's libopenblas0 installs the first
// through the alternatives system; the others cover distributions that ship
// only the versioned or the generic CBLAS.
var libraryCandidates = []string{
	"libopenblas.so.0",
	"libopenblas.so",
	"/usr/lib/x86_64-linux-gnu/libopenblas.so.0",
	"/usr/lib/aarch64-linux-gnu/libopenblas.so.0",
	"libcblas.so.3",
}

const (
	cblasRowMajor = 101
	cblasNoTrans  = 111
	cblasTrans    = 112
)

type cblasBackend struct {
	path     string
	core     string
	sgemm    func(order, ta, tb, m, n, k int32, alpha float32, a unsafe.Pointer, lda int32, b unsafe.Pointer, ldb int32, beta float32, c unsafe.Pointer, ldc int32)
	nthreads func() int32
}

func openCBLAS(path string) (Backend, error) {
	lib, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, err
	}
	sym, err := purego.Dlsym(lib, "cblas_sgemm")
	if err != nil || sym == 0 {
		return nil, fmt.Errorf("%s has no cblas_sgemm", path)
	}
	b := &cblasBackend{path: path, core: "unknown core"}
	purego.RegisterFunc(&b.sgemm, sym)
	if s, err := purego.Dlsym(lib, "openblas_get_corename"); err == nil && s != 0 {
		var corename func() string
		purego.RegisterFunc(&corename, s)
		b.core = corename()
	}
	if s, err := purego.Dlsym(lib, "openblas_get_num_threads"); err == nil && s != 0 {
		purego.RegisterFunc(&b.nthreads, s)
	}
	return b, nil
}

func (b *cblasBackend) Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int,
	bm []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	checkBounds(transA, transB, m, n, k, a, lda, bm, ldb, c, ldc)
	b.sgemm(cblasRowMajor, ctr(transA), ctr(transB), int32(m), int32(n), int32(k), alpha,
		ptr(a), int32(lda), ptr(bm), int32(ldb), beta, ptr(c), int32(ldc))
}

func ptr(s []float32) unsafe.Pointer {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Pointer(&s[0])
}

func ctr(t bool) int32 {
	if t {
		return cblasTrans
	}
	return cblasNoTrans
}

func (b *cblasBackend) Name() string { return fmt.Sprintf("openblas (%s, %s)", b.path, b.core) }

func (b *cblasBackend) Threads() int {
	if b.nthreads == nil {
		return 1
	}
	return int(b.nthreads())
}

// checkBounds panics, as gonum does, when a slice is too short for the
// product: C code would otherwise read or write past it silently.
func checkBounds(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	need := func(rows, cols, ld int) int {
		if rows == 0 || cols == 0 {
			return 0
		}
		return (rows-1)*ld + cols
	}
	if lda < ac || ldb < bc || ldc < n {
		panic(fmt.Sprintf("blas: bad leading dimension lda=%d ldb=%d ldc=%d", lda, ldb, ldc))
	}
	if len(a) < need(ar, ac, lda) || len(b) < need(br, bc, ldb) || len(c) < need(m, n, ldc) {
		panic(fmt.Sprintf("blas: slice too short for sgemm shape ta=%v tb=%v m=%d n=%d k=%d len a=%d b=%d c=%d ld %d %d %d", transA, transB, m, n, k, len(a), len(b), len(c), lda, ldb, ldc))
	}
}
