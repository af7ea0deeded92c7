package mpi

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// libraryCandidates are tried in order: Debian's libopenmpi3 ships
// libmpi.so.40; the unversioned name exists where the -dev package is
// installed or on clusters' module-provided Open MPI.
var libraryCandidates = []string{
	"libmpi.so.40",
	"libmpi.so",
	"/usr/lib/x86_64-linux-gnu/libmpi.so.40",
	"/usr/lib/aarch64-linux-gnu/libmpi.so.40",
}

// Open MPI's constants (mpi.h): MPI_IN_PLACE is ((void *) 1) and the
// thread levels are an enum from MPI_THREAD_SINGLE = 0.
const (
	inPlace          = uintptr(1)
	threadSerialized = 2
	// maxCount keeps every count inside MPI's int; larger buffers go in
	// several calls.
	maxCount = 1 << 30
)

type openMPI struct {
	path string
	// mu serialises calls: MPI is initialised at MPI_THREAD_SERIALIZED
	// because goroutines move between OS threads, so calls come from any
	// thread, but never two at once.
	mu                           sync.Mutex
	rank, size                   int
	world, float, double, byte_  uintptr
	sum                          uintptr
	allreduce, bcast, barrier    uintptr
	abort, finalize, errorString uintptr
	version                      string
	// ints receives the int outputs of MPI calls: it lives in the heap
	// (c is), so C never writes into a goroutine stack that could move.
	ints [4]int32
}

// Library returns the Open MPI library Init would load, or "" when none
// loads (for `strata env`); it does not initialise MPI.
func Library() string {
	paths := libraryCandidates
	if env := os.Getenv("STRATA_MPI"); env != "" {
		paths = []string{env}
	}
	for _, p := range paths {
		if lib, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
			_, err := purego.Dlsym(lib, "ompi_mpi_comm_world")
			purego.Dlclose(lib)
			if err == nil {
				return p
			}
		}
	}
	return ""
}

func initOpenMPI(env string) (Comm, error) {
	paths := libraryCandidates
	if env != "" {
		paths = []string{env}
	}
	var errs []string
	for _, p := range paths {
		lib, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		return openLibrary(p, lib)
	}
	return nil, fmt.Errorf("mpi: started by an MPI launcher but Open MPI's libmpi could not be loaded (apt-get install libopenmpi3, or set STRATA_MPI=/path/to/libmpi.so): %s",
		strings.Join(errs, "; "))
}

func openLibrary(path string, lib uintptr) (Comm, error) {
	c := &openMPI{path: path}
	syms := []struct {
		name string
		dst  *uintptr
	}{
		{"ompi_mpi_comm_world", &c.world}, {"ompi_mpi_float", &c.float}, {"ompi_mpi_double", &c.double},
		{"ompi_mpi_byte", &c.byte_}, {"ompi_mpi_op_sum", &c.sum},
		{"MPI_Allreduce", &c.allreduce}, {"MPI_Bcast", &c.bcast}, {"MPI_Barrier", &c.barrier},
		{"MPI_Abort", &c.abort}, {"MPI_Finalize", &c.finalize}, {"MPI_Error_string", &c.errorString},
	}
	for _, s := range syms {
		addr, err := purego.Dlsym(lib, s.name)
		if err != nil || addr == 0 {
			return nil, fmt.Errorf("mpi: %s has no %s: strata's MPI binding needs Open MPI's ABI (MPICH-family libraries are not supported)", path, s.name)
		}
		*s.dst = addr
	}
	// Open MPI installs backtrace handlers for SIGSEGV, SIGBUS, SIGFPE and
	// SIGABRT only where no handler is installed yet, so the Go runtime's
	// stay (TestCollectivesRank checks that a nil dereference still panics).
	if err := c.call("MPI_Init_thread", lib, 0, 0, threadSerialized, uintptr(unsafe.Pointer(&c.ints[0]))); err != nil {
		return nil, err
	}
	if err := c.call("MPI_Comm_rank", lib, c.world, uintptr(unsafe.Pointer(&c.ints[1]))); err != nil {
		return nil, err
	}
	if err := c.call("MPI_Comm_size", lib, c.world, uintptr(unsafe.Pointer(&c.ints[2]))); err != nil {
		return nil, err
	}
	c.rank, c.size = int(c.ints[1]), int(c.ints[2])
	c.version = c.libraryVersion(lib)
	return c, nil
}

// call looks name up in lib and calls it with args, turning a non-zero
// MPI return code into an error (used for the calls made once).
func (c *openMPI) call(name string, lib uintptr, args ...uintptr) error {
	fn, err := purego.Dlsym(lib, name)
	if err != nil || fn == 0 {
		return fmt.Errorf("mpi: %s has no %s", c.path, name)
	}
	return c.check(name, fn, args...)
}

// check calls fn with args and converts its return code.
func (c *openMPI) check(name string, fn uintptr, args ...uintptr) error {
	r, _, _ := purego.SyscallN(fn, args...)
	if code := int32(r); code != 0 {
		return fmt.Errorf("mpi: %s failed: %s (error %d)", name, c.errorText(code), code)
	}
	return nil
}

func (c *openMPI) errorText(code int32) string {
	if c.errorString == 0 {
		return "unknown error"
	}
	buf := heapBytes(512) // MPI_MAX_ERROR_STRING is 256 in Open MPI
	c.ints[3] = 0
	purego.SyscallN(c.errorString, uintptr(code), uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&c.ints[3])))
	runtime.KeepAlive(buf)
	n := c.ints[3]
	if n <= 0 || int(n) > len(buf) {
		return "unknown error"
	}
	return string(buf[:n])
}

// libraryVersion asks MPI_Get_library_version for the first line of its
// text ("Open MPI v4.1.4, package: ...").
func (c *openMPI) libraryVersion(lib uintptr) string {
	fn, err := purego.Dlsym(lib, "MPI_Get_library_version")
	if err != nil || fn == 0 {
		return "Open MPI"
	}
	buf := heapBytes(8192) // MPI_MAX_LIBRARY_VERSION_STRING is 256 in Open MPI
	purego.SyscallN(fn, uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&c.ints[3])))
	runtime.KeepAlive(buf)
	s := string(buf[:max(0, min(int(c.ints[3]), len(buf)))])
	if i := strings.IndexAny(s, ",\n"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, "\x00 ")
}

func (c *openMPI) Rank() int { return c.rank }
func (c *openMPI) Size() int { return c.size }
func (c *openMPI) Name() string {
	return fmt.Sprintf("%s (%s)", c.version, c.path)
}

func (c *openMPI) AllreduceSum(buf []float32) error {
	return c.chunks(len(buf), func(off, n int) error {
		return c.check("MPI_Allreduce", c.allreduce, inPlace, uintptr(unsafe.Pointer(&buf[off])), uintptr(n), c.float, c.sum, c.world)
	}, buf)
}

func (c *openMPI) AllreduceSum64(buf []float64) error {
	return c.chunks(len(buf), func(off, n int) error {
		return c.check("MPI_Allreduce", c.allreduce, inPlace, uintptr(unsafe.Pointer(&buf[off])), uintptr(n), c.double, c.sum, c.world)
	}, buf)
}

func (c *openMPI) Bcast(buf []byte, root int) error {
	return c.chunks(len(buf), func(off, n int) error {
		return c.check("MPI_Bcast", c.bcast, uintptr(unsafe.Pointer(&buf[off])), uintptr(n), c.byte_, uintptr(root), c.world)
	}, buf)
}

func (c *openMPI) BcastFloat32(buf []float32, root int) error {
	return c.chunks(len(buf), func(off, n int) error {
		return c.check("MPI_Bcast", c.bcast, uintptr(unsafe.Pointer(&buf[off])), uintptr(n), c.float, uintptr(root), c.world)
	}, buf)
}

// chunks runs f over [0, n) in pieces of at most maxCount elements, holding
// the lock and keeping keep (the Go buffer f passes to C) alive.
func (c *openMPI) chunks(n int, f func(off, n int) error, keep any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for off := 0; off < n; off += maxCount {
		if err := f(off, min(maxCount, n-off)); err != nil {
			return err
		}
	}
	runtime.KeepAlive(keep)
	return nil
}

func (c *openMPI) Barrier() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.check("MPI_Barrier", c.barrier, c.world)
}

// Abort does not take the lock: it must work while another goroutine is
// blocked inside a collective.
func (c *openMPI) Abort(code int) {
	purego.SyscallN(c.abort, c.world, uintptr(code))
	os.Exit(code)
}

func (c *openMPI) Finalize() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.check("MPI_Finalize", c.finalize)
}

// scratch keeps heapBytes' buffers reachable from a global so that they are
// allocated in the heap: C writes into them, and a goroutine stack can move.
var scratch struct {
	sync.Mutex
	last []byte
}

func heapBytes(n int) []byte {
	b := make([]byte, n)
	scratch.Lock()
	scratch.last = b
	scratch.Unlock()
	return b
}
