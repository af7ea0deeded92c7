package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/strata-nmt/strata/rundir"
)

func trainArgs(data, save string, extra ...string) []string {
	return append([]string{"train", "--data", data, "--save-dir", save, "--preset", "tiny", "--valid-split", "",
		"--threads", "1", "--log-interval", "50"}, extra...)
}

// Training again into a save directory never truncates the first run: with
// the same model and data it continues it, with another model it refuses
// and names the setting, and --restart moves it aside.
func TestRerunKeepsTheRun(t *testing.T) {
	data := filepath.Join(quickstartDir(t), "data")
	save := filepath.Join(t.TempDir(), "run")
	run(t, trainArgs(data, save, "--max-update", "4", "--save-interval-updates", "2")...)
	run(t, trainArgs(data, save, "--max-update", "6", "--save-interval-updates", "2")...)
	recs, err := rundir.ReadMetrics(save)
	if err != nil {
		t.Fatal(err)
	}
	var ups []int
	for _, r := range recs {
		if r.Type == "train" {
			ups = append(ups, r.Update)
		}
	}
	if len(ups) != 6 || ups[0] != 1 || ups[5] != 6 {
		t.Fatalf("after a rerun without --resume metrics.jsonl has train updates %v, want 1..6 (the first run continued)", ups)
	}
	before := readFile(t, filepath.Join(save, rundir.MetricsFile))
	_, _, err = runErr(trainArgs(data, save, "--max-update", "8", "--set", "encoder_layers=1")...)
	if err == nil {
		t.Fatal("a rerun with another model into the same --save-dir was accepted")
	}
	mustContain(t, "the refusal", err.Error(), "encoder_layers: 2 → 1", "--restart")
	if after := readFile(t, filepath.Join(save, rundir.MetricsFile)); after != before {
		t.Fatal("a refused rerun changed metrics.jsonl")
	}
	run(t, trainArgs(data, save, "--max-update", "1", "--set", "encoder_layers=1", "--restart")...)
	old, _ := filepath.Glob(save + ".old-*")
	if len(old) != 1 {
		t.Fatalf("--restart left %v beside the new run, want the old run moved to RUN.old-DATE", old)
	}
	if readFile(t, filepath.Join(old[0], rundir.MetricsFile)) != before {
		t.Error("the run moved aside by --restart is not the first run")
	}
}

// A run killed (SIGKILL) after a checkpoint has every metrics record up to
// that checkpoint, however long the log interval.
func TestMetricsCompleteAtCheckpoint(t *testing.T) {
	data := filepath.Join(quickstartDir(t), "data")
	save := filepath.Join(t.TempDir(), "run")
	cmd := strataProcess(trainArgs(data, save, "--max-update", "100000", "--save-interval-updates", "5")...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var ck *rundir.Existing
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if e, err := rundir.Inspect(save); err == nil && e != nil && e.Checkpoint != nil && e.Update >= 10 {
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
			ck = e
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no checkpoint at update 10 within a minute")
		}
	}
	e, _ := rundir.Inspect(save) // the checkpoint may have moved on before the kill
	recs, err := rundir.ReadMetrics(save)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]bool{}
	for _, r := range recs {
		seen[r.Update] = true
	}
	for u := 1; u <= max(ck.Update, e.Update); u++ {
		if !seen[u] {
			t.Fatalf("killed after the checkpoint at update %d, metrics.jsonl lacks update %d", e.Update, u)
		}
	}
}

// A model meets only a data directory with its own vocabulary: the same
// size with other tokens is refused, naming both.
func TestForeignVocabularyRefused(t *testing.T) {
	qs := quickstartDir(t)
	foreign := filepath.Join(t.TempDir(), "foreign")
	copyDir(t, filepath.Join(qs, "data"), foreign)
	manPath := filepath.Join(foreign, "manifest.json")
	var man map[string]any
	if err := json.Unmarshal([]byte(readFile(t, manPath)), &man); err != nil {
		t.Fatal(err)
	}
	man["languages"] = []string{"qab", "qaa"} // same size, tags swapped
	delete(man, "vocab_hash")                 // as a directory prepared before hashes were recorded
	b, _ := json.Marshal(man)
	os.WriteFile(manPath, b, 0o644)
	src := filepath.Join(qs, "corpus", "test.qaa")
	for _, args := range [][]string{
		{"translate", "--model", filepath.Join(qs, "run"), "--data", foreign, "--input", src, "--greedy"},
		{"score-nll", "--model", filepath.Join(qs, "run"), "--data", foreign, "--source", src, "--reference", filepath.Join(qs, "corpus", "test.qab")},
	} {
		_, _, err := runErr(args...)
		if err == nil {
			t.Fatalf("%s with a foreign vocabulary of the same size succeeded", args[0])
		}
		mustContain(t, args[0]+"'s error", err.Error(), "vocabulary", foreign, filepath.Join(qs, "run"))
	}
}

// A run directory moved together with its data still translates; one
// whose data is gone says what is missing instead of asking to prepare.
func TestMovedRun(t *testing.T) {
	qs := quickstartDir(t)
	moved := filepath.Join(t.TempDir(), "moved")
	copyDir(t, filepath.Join(qs, "run"), filepath.Join(moved, "run"))
	copyDir(t, filepath.Join(qs, "data"), filepath.Join(moved, "data"))
	info := filepath.Join(moved, "run", rundir.InfoFile)
	var ri map[string]any
	json.Unmarshal([]byte(readFile(t, info)), &ri)
	ri["data_dir_absolute"] = "/nonexistent/data" // only the relative path can find it
	b, _ := json.Marshal(ri)
	os.WriteFile(info, b, 0o644)
	src := filepath.Join(qs, "corpus", "test.qaa")
	out := run(t, "translate", "--model", filepath.Join(moved, "run"), "--input", src, "--greedy")
	if n := strings.Count(out, "\n"); n != 500 {
		t.Fatalf("the moved run translated %d lines of 500", n)
	}
	os.RemoveAll(filepath.Join(moved, "data"))
	_, _, err := runErr("translate", "--model", filepath.Join(moved, "run"), "--input", src)
	if err == nil {
		t.Fatal("a run without its data translated")
	}
	mustContain(t, "the error", err.Error(), "missing", "--data")
	if strings.Contains(err.Error(), "prepare") {
		t.Errorf("the error sends the user to prepare: %v", err)
	}
}

// translate --output killed by SIGINT or SIGTERM leaves no temporary file,
// exits 130 or 143 and says what was kept.
func TestSignalRemovesTemporaryFiles(t *testing.T) {
	qs := quickstartDir(t)
	big := filepath.Join(t.TempDir(), "big.txt")
	line := readFile(t, filepath.Join(qs, "corpus", "test.qaa"))
	os.WriteFile(big, []byte(strings.Repeat(line, 200)), 0o644)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		outDir := t.TempDir()
		cmd := strataProcess("translate", "--model", filepath.Join(qs, "run"), "--input", big, "--output",
			filepath.Join(outDir, "hyp.txt"), "--beam", "4", "--threads", "1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			if tmp, _ := filepath.Glob(filepath.Join(outDir, ".hyp.txt.tmp-*")); len(tmp) > 0 {
				break
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("no temporary output within 30s:\n%s", stderr.String())
			}
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
			t.Errorf("translate stopped by %v exited %d (%v), want %d", sig, code, err, 128+int(sig))
		}
		left, _ := os.ReadDir(outDir)
		if len(left) != 0 {
			t.Errorf("translate stopped by %v left %v", sig, left)
		}
		mustContain(t, "stderr", stderr.String(), "interrupted by", "hyp.txt")
	}
}

// One training per run directory: while a process holds the run's lock, a
// second strata train on it (or --restart) is refused and writes nothing,
// and strata status says it is training; once released, the run continues.
func TestOneTrainingPerRun(t *testing.T) {
	data := filepath.Join(quickstartDir(t), "data")
	save := filepath.Join(t.TempDir(), "run")
	run(t, trainArgs(data, save, "--max-update", "2", "--save-interval-updates", "2")...)
	before := readFile(t, filepath.Join(save, rundir.MetricsFile))
	lock, err := rundir.Lock(save)
	if err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{{"--max-update", "4"}, {"--max-update", "4", "--restart"}} {
		_, _, err := runErr(trainArgs(data, save, extra...)...)
		if err == nil || !strings.Contains(err.Error(), "another process is training this run") {
			t.Errorf("train %v on a locked run: %v, want a refusal", extra, err)
		}
	}
	if old, _ := filepath.Glob(save + ".old-*"); len(old) > 0 || readFile(t, filepath.Join(save, rundir.MetricsFile)) != before {
		t.Fatalf("a refused training moved or wrote the run (moved aside: %v)", old)
	}
	var st []rundir.Status
	if err := json.Unmarshal([]byte(run(t, "status", "--json", save)), &st); err != nil || len(st) != 1 || st[0].State != rundir.StateTraining {
		t.Errorf("status of a locked run: %+v (%v), want state training", st, err)
	}
	lock.Unlock()
	run(t, trainArgs(data, save, "--max-update", "4", "--save-interval-updates", "2")...)
	if err := json.Unmarshal([]byte(run(t, "status", "--json", save)), &st); err != nil || st[0].State != rundir.StateFinished || st[0].Updates != 4 {
		t.Errorf("status after the lock was released and the run continued: %+v (%v)", st, err)
	}
}
