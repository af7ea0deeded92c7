// Package mpi is strata's message-passing layer for data-parallel training:
// the handful of MPI collectives training needs (all-reduce, broadcast,
// barrier, abort), with Open MPI's libmpi loaded at run time through purego
// so that the build needs no C toolchain and CGO_ENABLED=0 keeps working.
//
// A process started by an MPI launcher (mpirun, or srun with PMIx) talks to
// its peers; any other process gets a single-process communicator whose
// collectives do nothing, so callers never branch on "is this distributed".
//
// The binding targets Open MPI's ABI (libmpi.so.40, Open MPI 3.x to 5.x): its
// handles (MPI_Comm, MPI_Datatype, MPI_Op) are pointers to structures, and
// the predefined ones are the addresses of exported globals
// (MPI_COMM_WORLD is &ompi_mpi_comm_world, MPI_FLOAT is &ompi_mpi_float,
// MPI_SUM is &ompi_mpi_op_sum), which dlsym returns. MPICH and its
// derivatives (Intel MPI, MVAPICH, Cray MPICH) differ: their handles are
// 32-bit integer constants compiled into programs (MPI_COMM_WORLD is
// 0x44000000, MPI_FLOAT 0x4c00040a, MPI_SUM 0x58000003) and MPI_IN_PLACE is
// (void*)-1 rather than (void*)1, so supporting them would take a second
// table of handles, not a second library name. Loading an MPICH libmpi is
// detected (it has no ompi_mpi_comm_world) and reported as an error.
package mpi

import (
	"fmt"
	"os"
)

// Comm is a communicator over the processes ("ranks") of one job. Every
// collective must be called by all ranks in the same order.
type Comm interface {
	Rank() int
	Size() int
	// AllreduceSum replaces buf on every rank by the element-wise sum of
	// all ranks' buf.
	AllreduceSum(buf []float32) error
	// AllreduceSum64 is AllreduceSum for float64 (loss and token sums).
	AllreduceSum64(buf []float64) error
	// Bcast copies root's buf into every rank's buf (same length on all).
	Bcast(buf []byte, root int) error
	// BcastFloat32 is Bcast for float32 slices (parameters).
	BcastFloat32(buf []float32, root int) error
	Barrier() error
	// Abort ends every rank of the job with code; it does not return.
	Abort(code int)
	// Finalize shuts MPI down; the communicator is unusable afterwards.
	Finalize() error
	// Name says what carries the messages, for logs and `strata env`.
	Name() string
}

// Launched reports whether this process was started by an MPI launcher:
// Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; srun --mpi=pmix and other
// PMIx launchers set PMIX_RANK.
func Launched() bool {
	return os.Getenv("OMPI_COMM_WORLD_SIZE") != "" || os.Getenv("PMIX_RANK") != ""
}

// Init returns the world communicator: Open MPI's when Launched, a
// single-process one otherwise. STRATA_MPI=/path/to/libmpi.so picks the
// library.
func Init() (Comm, error) {
	if !Launched() {
		return Local{}, nil
	}
	return initOpenMPI(os.Getenv("STRATA_MPI"))
}

// Local is the communicator of a process that runs alone: rank 0 of 1,
// collectives leave buffers as they are.
type Local struct{}

func (Local) Rank() int                         { return 0 }
func (Local) Size() int                         { return 1 }
func (Local) AllreduceSum([]float32) error      { return nil }
func (Local) AllreduceSum64([]float64) error    { return nil }
func (Local) Bcast([]byte, int) error           { return nil }
func (Local) BcastFloat32([]float32, int) error { return nil }
func (Local) Barrier() error                    { return nil }
func (Local) Abort(code int)                    { os.Exit(code) }
func (Local) Finalize() error                   { return nil }
func (Local) Name() string                      { return "single process" }

// Describe is a one-line summary of a communicator for logs.
func Describe(c Comm) string {
	if c.Size() == 1 {
		return c.Name()
	}
	return fmt.Sprintf("%d ranks over %s", c.Size(), c.Name())
}
