package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// quick is one small quickstart (corpus, data directory, run) shared by the
// tests that only read it; tests that change a run copy it first.
var quick struct {
	once sync.Once
	dir  string
	err  string
}

// quickstartDir returns the shared quickstart directory: corpus/, data/,
// run/.
func quickstartDir(t *testing.T) string {
	t.Helper()
	quick.once.Do(func() {
		dir, err := os.MkdirTemp("", "strata-cli-test-")
		if err != nil {
			quick.err = err.Error()
			return
		}
		resetFlags(rootCmd)
		var out, errb bytes.Buffer
		rootCmd.SetOut(&out)
		rootCmd.SetErr(&errb)
		rootCmd.SetArgs([]string{"quickstart", "--dir", dir, "--train-time", "1s", "--sentences", "300", "--test-sentences", "10", "--beam", "1"})
		defer rootCmd.SetArgs(nil)
		if err := rootCmd.Execute(); err != nil {
			quick.err = err.Error() + "\n" + errb.String()
		}
		quick.dir = dir
	})
	if quick.err != "" {
		t.Fatalf("quickstart fixture: %s", quick.err)
	}
	return quick.dir
}

// runErr executes one strata command line in-process and returns its
// stdout, stderr and error.
func runErr(args ...string) (string, string, error) {
	resetFlags(rootCmd)
	var out, errb bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetErr(&errb)
	rootCmd.SetArgs(args)
	defer rootCmd.SetArgs(nil)
	err := rootCmd.Execute()
	return out.String(), errb.String(), err
}

// strataProcess starts this test binary as the strata command.
func strataProcess(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "STRATA_AS_MAIN=1")
	return cmd
}

// copyDir copies a directory tree (regular files only).
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
}

func mustContain(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s does not contain %q:\n%s", what, w, s)
		}
	}
}
