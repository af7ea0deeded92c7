package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test run this test binary as the strata command itself
// (STRATA_AS_MAIN=1), to check what only a separate process shows: exit
// statuses and signals.
func TestMain(m *testing.M) {
	if os.Getenv("STRATA_AS_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	code := m.Run()
	if quick.dir != "" {
		os.RemoveAll(quick.dir)
	}
	os.Exit(code)
}

// A training run stopped by SIGINT saves a checkpoint, says how to resume
// and exits with status 130, so that a script's `strata train ... && touch
// .done` does not mark it finished; resuming then completes with status 0.
func TestTrainInterruptExitStatus(t *testing.T) {
	dir := t.TempDir()
	run(t, "quickstart", "--dir", dir, "--train-time", "1s", "--sentences", "300", "--test-sentences", "10", "--beam", "1")
	save := filepath.Join(dir, "interrupted")
	args := []string{"train", "--data", filepath.Join(dir, "data"), "--save-dir", save, "--preset", "tiny",
		"--max-update", "1000000", "--log-interval", "1", "--threads", "1"}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "STRATA_AS_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	metrics := filepath.Join(save, "metrics.jsonl")
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(metrics); bytes.Contains(b, []byte(`"type":"train"`)) {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no training update logged within a minute:\n%s", stderr.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 130 {
		t.Fatalf("interrupted train ended with %v, want exit status 130\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "--resume") {
		t.Fatalf("interrupted train does not say how to continue:\n%s", stderr.String())
	}
	if _, err := os.Stat(filepath.Join(save, "checkpoint_last.bin")); err != nil {
		t.Fatalf("no checkpoint after the interrupt: %v", err)
	}
	resume := exec.Command(os.Args[0], "train", "--data", filepath.Join(dir, "data"), "--save-dir", save,
		"--preset", "tiny", "--max-update", "1", "--threads", "1", "--resume")
	resume.Env = cmd.Env
	if out, err := resume.CombinedOutput(); err != nil {
		t.Fatalf("resumed run to its budget: %v\n%s", err, out)
	}
}
