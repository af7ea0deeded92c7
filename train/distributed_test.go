package train

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-nmt/strata/engine/mpi"
	"github.com/strata-nmt/strata/internal/mpitest"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
)

// The data-parallel tests run TestDataParallelRank under mpirun -np 2 and
// compare with one process at --update-freq 2 trained here.

func dpTask() Synthetic {
	t := copyTask(10)
	// 7 batches an epoch: the last update of an epoch has one batch, so one
	// rank has none
	t.Count, t.BatchSize = 7, 16
	return t
}

func dpOpts(dir string, updateFreq int) Options {
	o := Defaults()
	cfg, _ := model.Preset("tiny")
	cfg.SrcVocab, cfg.TgtVocab = 14, 14
	cfg.Dropout = 0.1 // masks must follow the batch, not the rank
	o.Model = cfg
	o.LR, o.WarmupUpdates, o.WarmupInitLR = 3e-3, 30, 1e-7
	o.SaveDir, o.Threads, o.UpdateFreq = dir, 1, updateFreq
	o.MaxUpdate, o.SaveInterval, o.ValidInterval, o.LogInterval = 10, 2, 5, 1
	return o
}

type dpResult struct {
	UpdateLoss []float64
	BestValid  float64
}

// reference trains one process at --update-freq 2.
func dpReference(t *testing.T) dpResult {
	task := dpTask()
	res, err := Run(context.Background(), dpOpts(t.TempDir(), 2), task, task.Valid(3))
	if err != nil {
		t.Fatal(err)
	}
	return dpResult{res.UpdateLoss, res.BestValid}
}

func runRanks(t *testing.T, mode, dir string) (string, error) {
	cmd := mpitest.Command(t, 2, os.Args[0], "-test.run", "^TestDataParallelRank$", "-test.v")
	cmd.Env = append(os.Environ(), "STRATA_DP_TEST="+mode, "STRATA_DP_DIR="+dir)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func sameLosses(t *testing.T, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d updates, want %d", len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-4*math.Max(1, math.Abs(want[i])) {
			t.Errorf("update %d: loss %.6f, want %.6f (one process, update-freq 2)", i+1, got[i], want[i])
		}
	}
}

// metricsUpdates counts the train records of each update in metrics.jsonl,
// read as ReadMetrics reads it (a resumed run's "resume" record supersedes
// what was logged after its checkpoint; the file itself is append-only).
func metricsUpdates(t *testing.T, dir string) map[int]int {
	recs, err := rundir.ReadMetrics(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	for _, rec := range recs {
		if rec.Type == "train" {
			seen[rec.Update]++
		}
	}
	return seen
}

// Two ranks at --update-freq 1, each splitting its batches over two
// workers, train like one process at --update-freq 2 with one, and rank 0
// alone writes metrics.
func TestDataParallelEqualsUpdateFreq(t *testing.T) {
	dir := t.TempDir()
	out, err := runRanks(t, "match", dir)
	if err != nil {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
	var got dpResult
	b, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil || json.Unmarshal(b, &got) != nil {
		t.Fatalf("rank 0 wrote no result (%v):\n%s", err, out)
	}
	want := dpReference(t)
	sameLosses(t, got.UpdateLoss, want.UpdateLoss)
	if math.Abs(got.BestValid-want.BestValid) > 1e-4 {
		t.Errorf("best valid %.6f, want %.6f", got.BestValid, want.BestValid)
	}
	for u, n := range metricsUpdates(t, dir) {
		if n != 1 {
			t.Errorf("metrics.jsonl has update %d %d times (rank 0 alone must write it)", u, n)
		}
	}
	if !strings.Contains(out, "batch shards: 2 in-process workers") {
		t.Errorf("the log does not state the batch shards:\n%s", out)
	}
	if !strings.Contains(out, "each update sums 2 ranks × 1 batches") {
		t.Errorf("the log does not state the effective batch:\n%s", out)
	}
}

// A rank killed mid-run ends the job within seconds, the last checkpoint
// stays usable, and a resumed run (here with one process at update-freq 2,
// a different number of ranks) continues as if nothing had happened.
func TestDataParallelRankFailure(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	out, err := runRanks(t, "kill", dir)
	end := time.Now()
	if err == nil {
		t.Fatalf("mpirun succeeded although rank 1 was killed:\n%s", out)
	}
	b, rerr := os.ReadFile(filepath.Join(dir, "killed_at"))
	ns, perr := strconv.ParseInt(string(b), 10, 64)
	if rerr != nil || perr != nil {
		t.Fatalf("rank 1 did not record its death (%v %v) after %s:\n%s", rerr, perr, end.Sub(start), out)
	}
	stopped := end.Sub(time.Unix(0, ns))
	t.Logf("job stopped %.2f s after rank 1 was killed; mpirun said:\n%s", stopped.Seconds(), out)
	if stopped > 10*time.Second {
		t.Errorf("the job took %s to stop after a rank died", stopped)
	}
	if !strings.Contains(out, "signal 9") {
		t.Errorf("no message names the killed rank:\n%s", out)
	}
	want := dpReference(t)
	task := dpTask()
	o := dpOpts(dir, 2)
	o.Resume = true
	res, err := Run(context.Background(), o, task, task.Valid(3))
	if err != nil {
		t.Fatal(err)
	}
	// the kill came in update 7; checkpoint 6 is the last
	sameLosses(t, res.UpdateLoss, want.UpdateLoss[6:])
	for u, n := range metricsUpdates(t, dir) {
		if n != 1 {
			t.Errorf("metrics.jsonl has update %d %d times", u, n)
		}
	}
}

// Ranks whose parameters drift apart (here rank 1 runs Adam with another
// ε) are caught at the first checkpoint, on every rank, before it is
// written.
func TestDataParallelChecksum(t *testing.T) {
	dir := t.TempDir()
	out, err := runRanks(t, "diverge", dir)
	if err != nil {
		t.Fatalf("mpirun: %v\n%s", err, out)
	}
	if n := strings.Count(out, "parameters disagree"); n != 2 {
		t.Errorf("%d of 2 ranks reported the disagreement:\n%s", n, out)
	}
	if _, err := os.Stat(filepath.Join(dir, rundir.LastCheckpoint)); err == nil {
		t.Errorf("a checkpoint was written although the ranks disagree")
	}
}

// killingSource kills its own process (as the OOM killer would) when asked
// for batch (epoch, index).
type killingSource struct {
	Source
	epoch, index int
	stamp        string
}

func (s killingSource) Epoch(e int) (int, func(int) model.Batch) {
	n, batch := s.Source.Epoch(e)
	return n, func(i int) model.Batch {
		if e == s.epoch && i == s.index {
			os.WriteFile(s.stamp, []byte(strconv.FormatInt(time.Now().UnixNano(), 10)), 0o644)
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		}
		return batch(i)
	}
}

// TestDataParallelRank is one rank of the tests above.
func TestDataParallelRank(t *testing.T) {
	mode, dir := os.Getenv("STRATA_DP_TEST"), os.Getenv("STRATA_DP_DIR")
	if mode == "" {
		t.Skip("run by the data-parallel tests under mpirun")
	}
	comm, err := mpi.Init()
	if err != nil {
		t.Fatal(err)
	}
	defer comm.Finalize()
	task := dpTask()
	var src Source = task
	if mode == "kill" && comm.Rank() == 1 {
		// update 7 is batches 4 and 5 of epoch 2 (7 batches per epoch:
		// updates 1-4 are epoch 1); rank 1 trains batch 5
		src = killingSource{Source: task, epoch: 2, index: 5, stamp: filepath.Join(dir, "killed_at")}
	}
	o := dpOpts(dir, 1)
	o.Comm, o.Log, o.BatchTokens = comm, os.Stderr, 0
	if mode == "match" {
		// ranks × batch shards, against one process with one
		o.Workers = 2
	}
	if mode == "diverge" && comm.Rank() == 1 {
		o.Adam.Eps = 1e-3
	}
	res, err := Run(context.Background(), o, src, task.Valid(3))
	if mode == "diverge" {
		if err == nil || !strings.Contains(err.Error(), "parameters disagree") {
			t.Fatalf("rank %d: want a disagreement error, got %v", comm.Rank(), err)
		}
		fmt.Fprintf(os.Stderr, "rank %d: %v\n", comm.Rank(), err)
		return
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rank %d: %v\n", comm.Rank(), err)
		comm.Abort(1)
	}
	if comm.Rank() == 0 {
		b, _ := json.Marshal(dpResult{res.UpdateLoss, res.BestValid})
		if err := os.WriteFile(filepath.Join(dir, "result.json"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Fprintf(os.Stderr, "rank %d: %d updates, %.3f s in all-reduce\n", comm.Rank(), res.Updates, res.CommSeconds)
}
