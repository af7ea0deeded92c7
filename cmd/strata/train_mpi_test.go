package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/internal/mpitest"
)

// `mpirun -np 2 strata train` on the quickstart's toy corpus logs the same
// losses, update for update, as one process at --update-freq 2; rank 0
// alone writes run.json and metrics, and the log states the effective
// batch. (train's TestDataParallel* test the semantics in depth.)
func TestTrainUnderMPIRun(t *testing.T) {
	if why := mpitest.Available(); why != "" {
		t.Skip("skipping MPI test: " + why)
	}
	dir := t.TempDir()
	run(t, "quickstart", "--dir", dir, "--train-time", "1s", "--sentences", "300", "--test-sentences", "10", "--beam", "1")
	args := func(save string) []string {
		return []string{"train", "--data", filepath.Join(dir, "data"), "--save-dir", save, "--preset", "tiny",
			"--max-update", "6", "--max-tokens", "512", "--threads", "1", "--log-interval", "1",
			"--save-interval-updates", "3", "--validate-interval-updates", "3"}
	}
	par := filepath.Join(dir, "mpi")
	cmd := mpitest.Command(t, 2, os.Args[0], args(par)...)
	cmd.Env = append(os.Environ(), "STRATA_AS_MAIN=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("mpirun -np 2 strata train: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "= up to 1024 tokens") {
		t.Errorf("the log does not state the effective batch:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(par, "run.json")); err != nil {
		t.Errorf("no run.json: %v", err)
	}
	one := filepath.Join(dir, "one")
	run(t, append(args(one), "--update-freq", "2")...)
	got, want := trainLosses(t, par), trainLosses(t, one)
	if len(got) != 6 || len(want) != 6 {
		t.Fatalf("updates logged: %d under mpirun, %d alone, want 6 each", len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 2e-4 {
			t.Errorf("update %d: loss %.4f under mpirun -np 2, %.4f alone at --update-freq 2", i+1, got[i], want[i])
		}
	}
}

// trainLosses reads the training losses of metrics.jsonl in update order.
func trainLosses(t *testing.T, dir string) []float64 {
	f, err := os.Open(filepath.Join(dir, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var losses []float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec struct {
			Type string
			Loss float64
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Type == "train" {
			losses = append(losses, rec.Loss)
		}
	}
	return losses
}
