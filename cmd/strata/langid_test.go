package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/internal/sharedtest"
)

// runStrata executes the root command in-process. Flag values persist
// between executions, so callers pass every langid flag explicitly.
func runStrata(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	rootCmd.SetArgs(args)
	rootCmd.SetIn(strings.NewReader(stdin))
	rootCmd.SetOut(&out)
	rootCmd.SetErr(&errb)
	err = rootCmd.Execute()
	return out.String(), errb.String(), err
}

func lidModel(t *testing.T) string {
	t.Helper()
	return sharedtest.Path(t, "models/lid.176.ftz")
}

func TestLangidCLIOutputIsFastTexts(t *testing.T) {
	model := lidModel(t)
	cli, err := exec.LookPath("fasttext")
	if err != nil {
		t.Skip("fasttext CLI not installed")
	}
	file := filepath.Join(t.TempDir(), "in.txt")
	in := "Das ist ein Test.\nCeci est un test.\n\n  \t \nЭто тест\n这是一个测试\nno newline at the end"
	if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(cli, "predict-prob", model, file, "3", "0.001").Output()
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := runStrata(t, "", "langid", "--model", model, "--k", "3", "--threshold", "0.001", "--json=false", file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("strata langid output:\n%s\nfasttext predict-prob output:\n%s", got, want)
	}
	// Standard input gives the same.
	got, _, err = runStrata(t, in, "langid", "--model", model, "--k", "3", "--threshold", "0.001", "--json=false")
	if err != nil || got != string(want) {
		t.Errorf("from stdin: err %v, output differs:\n%s", err, got)
	}
}

func TestLangidCLIJSONAndErrors(t *testing.T) {
	model := lidModel(t)
	out, _, err := runStrata(t, "Hello world, this is a test.\n", "langid", "--model", model, "--k", "2", "--threshold", "0", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Line        int
		Predictions []struct {
			Lang string
			Prob float64
		}
		Fallback bool
	}
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("--json output %q: %v", out, err)
	}
	if rec.Line != 1 || len(rec.Predictions) != 2 || rec.Predictions[0].Lang != "en" || rec.Fallback {
		t.Errorf("--json record %+v", rec)
	}
	if _, _, err := runStrata(t, "", "langid", "--model", model, "--k", "0", "--threshold", "0", "--json=false"); err == nil || !strings.Contains(err.Error(), "--k") {
		t.Errorf("--k 0: error %v, want one about --k", err)
	}
	if _, _, err := runStrata(t, "", "langid", "--model", "/etc/hostname", "--k", "1", "--threshold", "0", "--json=false"); err == nil || !strings.Contains(err.Error(), "not a fastText model") {
		t.Errorf("non-model file: error %v", err)
	}
}

func TestLangidCLIFallbackSaysSo(t *testing.T) {
	out, stderr, err := runStrata(t, "Das ist ein ganz normaler deutscher Satz.\n", "langid", "--model", "fallback", "--k", "1", "--threshold", "0", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "NOT fastText") || !strings.Contains(out, `"fallback":true`) || !strings.Contains(out, "NOT fastText") {
		t.Errorf("fallback not announced: stderr %q, stdout %q", stderr, out)
	}
}
