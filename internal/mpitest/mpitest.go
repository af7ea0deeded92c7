// Package mpitest starts test programs under Open MPI's mpirun, skipping
// the test with a message where mpirun or libmpi is missing.
package mpitest

import (
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/ebitengine/purego"
)

// Available reports why MPI tests cannot run here ("" when they can).
func Available() string {
	if _, err := exec.LookPath("mpirun"); err != nil {
		return "mpirun not found (apt-get install openmpi-bin libopenmpi3)"
	}
	for _, p := range []string{"libmpi.so.40", "libmpi.so"} {
		if lib, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
			purego.Dlclose(lib)
			return ""
		}
	}
	return "Open MPI's libmpi.so.40 not found (apt-get install libopenmpi3)"
}

// Command returns `mpirun -np n prog args...` with the options a test
// machine needs: --oversubscribe (more ranks than cores), and
// --allow-run-as-root when run as root (CI). It skips t when MPI is absent.
func Command(t testing.TB, n int, prog string, args ...string) *exec.Cmd {
	t.Helper()
	if why := Available(); why != "" {
		t.Skip("skipping MPI test: " + why)
	}
	full := append(Flags(n), prog)
	return exec.Command("mpirun", append(full, args...)...)
}

// Flags are the mpirun options before the program.
func Flags(n int) []string {
	f := []string{"-np", strconv.Itoa(n), "--oversubscribe",
		// shared memory between the local ranks; no InfiniBand probing
		"--mca", "btl", "self,vader,tcp",
		// containers often forbid the cross-memory-attach syscalls
		"--mca", "btl_vader_single_copy_mechanism", "none"}
	if os.Geteuid() == 0 {
		f = append(f, "--allow-run-as-root")
	}
	return f
}

// Rank is the rank mpirun gave this process, or -1 when it was not
// started by mpirun.
func Rank() int {
	n, err := strconv.Atoi(os.Getenv("OMPI_COMM_WORLD_RANK"))
	if err != nil {
		return -1
	}
	return n
}
