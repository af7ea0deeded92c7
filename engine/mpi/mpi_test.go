package mpi

import (
	"os"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/internal/mpitest"
)

func TestLocalWhenNotLaunched(t *testing.T) {
	if Launched() {
		t.Skip("running under an MPI launcher")
	}
	c, err := Init()
	if err != nil {
		t.Fatal(err)
	}
	buf := []float32{1, 2}
	if err := c.AllreduceSum(buf); err != nil || c.Rank() != 0 || c.Size() != 1 || buf[0] != 1 || buf[1] != 2 {
		t.Errorf("local communicator: rank %d size %d buf %v err %v", c.Rank(), c.Size(), buf, err)
	}
}

// TestCollectives runs TestCollectivesRank in 3 ranks under mpirun.
func TestCollectives(t *testing.T) {
	cmd := mpitest.Command(t, 3, os.Args[0], "-test.run", "^TestCollectivesRank$", "-test.v")
	cmd.Env = append(os.Environ(), "STRATA_MPI_TEST=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
	if got := strings.Count(string(out), "--- PASS: TestCollectivesRank"); got != 3 {
		t.Fatalf("%d of 3 ranks passed:\n%s", got, out)
	}
}

// TestCollectivesRank is one rank of TestCollectives.
func TestCollectivesRank(t *testing.T) {
	if os.Getenv("STRATA_MPI_TEST") == "" {
		t.Skip("run by TestCollectives under mpirun")
	}
	c, err := Init()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Finalize()
	r, n := c.Rank(), c.Size()
	if n != 3 {
		t.Fatalf("size %d, want 3", n)
	}
	// all-reduce: element i of rank r is r+i; sum over ranks 0..2 is 3+3i
	buf := make([]float32, 1000)
	for i := range buf {
		buf[i] = float32(r + i)
	}
	if err := c.AllreduceSum(buf); err != nil {
		t.Fatal(err)
	}
	for i, v := range buf {
		if v != float32(3+3*i) {
			t.Fatalf("rank %d: allreduce[%d] = %v, want %v", r, i, v, 3+3*i)
		}
	}
	d := []float64{float64(r), 0.5}
	if err := c.AllreduceSum64(d); err != nil || d[0] != 3 || d[1] != 1.5 {
		t.Fatalf("rank %d: allreduce64 = %v (%v)", r, d, err)
	}
	b := []byte("......")
	if r == 1 {
		copy(b, "rank 1")
	}
	if err := c.Bcast(b, 1); err != nil || string(b) != "rank 1" {
		t.Fatalf("rank %d: bcast = %q (%v)", r, b, err)
	}
	f := []float32{float32(r), float32(r)}
	if err := c.BcastFloat32(f, 2); err != nil || f[0] != 2 || f[1] != 2 {
		t.Fatalf("rank %d: bcast float32 = %v (%v)", r, f, err)
	}
	if err := c.Barrier(); err != nil {
		t.Fatal(err)
	}
	// Open MPI must not have taken SIGSEGV from the Go runtime: a nil
	// dereference is still a recoverable panic.
	func() {
		defer func() {
			if recover() == nil {
				t.Error("nil dereference did not panic")
			}
		}()
		var p *int
		_ = *p
	}()
	if !strings.Contains(c.Name(), "Open MPI") {
		t.Errorf("Name() = %q", c.Name())
	}
	t.Logf("rank %d of %d on %s", r, n, c.Name())
}
