package blas

import (
	"fmt"
	"runtime"
	"sync"
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
	path  string
	core  string
	sgemm func(order, ta, tb, m, n, k int32, alpha float32, a unsafe.Pointer, lda int32, b unsafe.Pointer, ldb int32, beta float32, c unsafe.Pointer, ldc int32)
	// fsgemm is the Fortran sgemm_, called through purego.SyscallN when the
	// library has it: every argument is a pointer, so the call needs no
	// reflection. The cblas_sgemm binding above goes through
	// purego.RegisterFunc's reflect-based path, which allocates about a
	// dozen objects per call, tens of thousands per training step when
	// attention issues one product per (sentence, head).
	fsgemm      uintptr
	nthreads    func() int32
	setNThreads func(int32)
}

// fortranArgs holds the scalar arguments of one sgemm_ call (sgemm_ takes
// them by reference) and the argument list itself. Blocks are pooled and the
// list is passed as an existing slice, so a call allocates nothing; every
// pointer in it refers to heap memory that is kept alive across the call.
type fortranArgs struct {
	transA, transB         byte
	m, n, k, lda, ldb, ldc int32
	alpha, beta            float32
	args                   [13]uintptr
}

var fortranPool = sync.Pool{New: func() any { return new(fortranArgs) }}

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
	if s, err := purego.Dlsym(lib, "openblas_set_num_threads"); err == nil && s != 0 {
		purego.RegisterFunc(&b.setNThreads, s)
	}
	if s, err := purego.Dlsym(lib, "sgemm_"); err == nil && s != 0 {
		b.fsgemm = s
	}
	return b, nil
}

func (b *cblasBackend) Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int,
	bm []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	checkBounds(transA, transB, m, n, k, a, lda, bm, ldb, c, ldc)
	if b.fsgemm != 0 {
		b.fortranSgemm(transA, transB, m, n, k, alpha, a, lda, bm, ldb, beta, c, ldc)
		return
	}
	b.sgemm(cblasRowMajor, ctr(transA), ctr(transB), int32(m), int32(n), int32(k), alpha,
		ptr(a), int32(lda), ptr(bm), int32(ldb), beta, ptr(c), int32(ldc))
}

// fortranSgemm computes the row-major product with the column-major sgemm_:
// a row-major matrix is the column-major storage of its transpose, so
// C = op(A)·op(B) is computed as Cᵀ = op(B)ᵀ·op(A)ᵀ by swapping the operands.
func (b *cblasBackend) fortranSgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int,
	bm []float32, ldb int, beta float32, c []float32, ldc int) {
	f := fortranPool.Get().(*fortranArgs)
	*f = fortranArgs{transA: fch(transB), transB: fch(transA), m: int32(n), n: int32(m), k: int32(k),
		lda: int32(ldb), ldb: int32(lda), ldc: int32(ldc), alpha: alpha, beta: beta}
	f.args = [13]uintptr{
		uintptr(unsafe.Pointer(&f.transA)), uintptr(unsafe.Pointer(&f.transB)),
		uintptr(unsafe.Pointer(&f.m)), uintptr(unsafe.Pointer(&f.n)), uintptr(unsafe.Pointer(&f.k)),
		uintptr(unsafe.Pointer(&f.alpha)), uintptr(ptr(bm)), uintptr(unsafe.Pointer(&f.lda)),
		uintptr(ptr(a)), uintptr(unsafe.Pointer(&f.ldb)), uintptr(unsafe.Pointer(&f.beta)),
		uintptr(ptr(c)), uintptr(unsafe.Pointer(&f.ldc))}
	purego.SyscallN(b.fsgemm, f.args[:]...)
	runtime.KeepAlive(f)
	runtime.KeepAlive(a)
	runtime.KeepAlive(bm)
	runtime.KeepAlive(c)
	fortranPool.Put(f)
}

func fch(t bool) byte {
	if t {
		return 'T'
	}
	return 'N'
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
