package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/strata-nmt/strata/engine/mpi"
)

// endMPI ends a rank's part in a data-parallel job (docs/distributed.md).
// On an error the other ranks may be waiting in a collective for this one,
// so the job is aborted (MPI_Abort makes mpirun stop every rank) rather than
// left to hang; an interruption is agreed by all ranks, which finalise.
func endMPI(c mpi.Comm, err error) error {
	var ie interruptedError
	if err != nil && c.Size() > 1 && !errors.As(err, &ie) {
		fmt.Fprintf(os.Stderr, "strata: rank %d of %d: %v: aborting the job\n", c.Rank(), c.Size(), err)
		c.Abort(1)
	}
	if ferr := c.Finalize(); err == nil {
		err = ferr
	}
	return err
}

// watchMPIStop says, on rank 0 of a data-parallel job, what a stop signal
// means: mpirun sends SIGTERM to every rank on Ctrl-C and when a rank dies.
// The returned function ends the watch (call it before ctx is cancelled
// for any other reason).
func watchMPIStop(ctx context.Context, c mpi.Comm, dir string) (end func()) {
	if c.Size() == 1 || c.Rank() != 0 {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		fmt.Fprintf(os.Stderr, "\nstrata: stop signal: the %d ranks save a checkpoint together after this update; "+
			"if a rank died, mpirun ends the job instead and %s keeps its last complete checkpoint\n", c.Size(), dir)
	}()
	return func() { close(done) }
}
