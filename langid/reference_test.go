package langid

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/internal/sharedtest"
)

// The tests in this file compare against Debian's fasttext CLI, the
// reference implementation; they skip when it or the shared data is absent.

func fastTextCLI(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("fasttext")
	if err != nil {
		t.Skip("fasttext CLI not installed (Debian package fasttext): skipping the reference comparison")
	}
	return p
}

// predictProb runs `fasttext predict-prob model file k [threshold]`.
func predictProb(t *testing.T, cli, model, file string, k int, threshold string) []byte {
	t.Helper()
	args := []string{"predict-prob", model, file, fmt.Sprint(k)}
	if threshold != "" {
		args = append(args, threshold)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(cli, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fasttext %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// ours runs the Go implementation the way `strata langid` does.
func ours(t *testing.T, m *Model, file string, k int, threshold float32) []byte {
	t.Helper()
	in, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Stream(m, bytes.NewReader(in), &out, StreamOptions{K: k, Threshold: threshold}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// checkAgainstCLI requires labels to agree on every line and probabilities
// to 1e-4 (the specification), and beyond that the output to be
// byte-identical, which holds as long as expf reproduces the C library's.
func checkAgainstCLI(t *testing.T, cli, modelPath string, m *Model, file string, k int, threshold string) {
	t.Helper()
	var th float32
	if threshold != "" {
		fmt.Sscan(threshold, &th)
	}
	want := predictProb(t, cli, modelPath, file, k, threshold)
	got := ours(t, m, file, k, th)
	problems, diffs := comparePredictions(want, got, 1e-4)
	name := fmt.Sprintf("%s k=%d threshold=%q", filepath.Base(file), k, threshold)
	if len(problems) > 0 {
		t.Errorf("%s: disagrees with fasttext predict-prob:\n  %s", name, strings.Join(problems, "\n  "))
	}
	lines := bytes.Count(want, []byte("\n"))
	if diffs > 0 {
		t.Errorf("%s: %d of %d lines are not byte-identical to fasttext's output", name, diffs, lines)
	}
}

func TestLid176MatchesFastText(t *testing.T) {
	cli := fastTextCLI(t)
	shared := sharedtest.Dir(t)
	modelPath := filepath.Join(shared, "models", "lid.176.ftz")
	m, err := Load(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, pat := range []string{"data/l10n/test/test.*", "data/flores200-devtest/*.devtest"} {
		f, _ := filepath.Glob(filepath.Join(shared, pat))
		files = append(files, f...)
	}
	if len(files) != 20 {
		t.Fatalf("found %d l10n test and FLORES devtest files under %s, want 20", len(files), shared)
	}
	// k=1 on every line; all 176 labels (k=-1, slow to print) and a
	// threshold on a sample of 100 lines from each file.
	var sample []byte
	for _, f := range files {
		checkAgainstCLI(t, cli, modelPath, m, f, 1, "")
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range bytes.SplitAfter(data, []byte("\n"))[:100] {
			sample = append(sample, l...)
		}
	}
	samplePath := filepath.Join(t.TempDir(), "sample.txt")
	writeFile(t, samplePath, sample)
	checkAgainstCLI(t, cli, modelPath, m, samplePath, -1, "")
	checkAgainstCLI(t, cli, modelPath, m, samplePath, 5, "0.001")
}

func TestSyntheticModelsMatchFastText(t *testing.T) {
	cli := fastTextCLI(t)
	dir := t.TempDir()
	cases := []struct {
		name                         string
		loss, labels, ngrams, mn, mx int32
		version                      int32
	}{
		{"softmax", lossSoftmax, 9, 1, 2, 4, 12},
		{"hs-bigrams", lossHS, 13, 2, 3, 6, 12},
		{"ova-trigrams", lossOVA, 7, 3, 1, 3, 12},
		{"ns-nochar", lossNS, 5, 2, 0, 0, 12},
		{"v11-hs", lossHS, 6, 1, 2, 4, 11},
	}
	for i, c := range cases {
		s := newSynth(int64(10+i), c.loss, c.labels, c.ngrams, c.mn, c.mx)
		s.version = c.version
		modelPath := filepath.Join(dir, c.name+".bin")
		linesPath := filepath.Join(dir, c.name+".txt")
		writeFile(t, modelPath, s.encode())
		writeFile(t, linesPath, randLines(int64(100+i), s, 400))
		m, err := Load(modelPath)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 3, -1} {
			checkAgainstCLI(t, cli, modelPath, m, linesPath, k, "")
		}
		checkAgainstCLI(t, cli, modelPath, m, linesPath, -1, "0.05")
	}
}

// TestQuantizedModelsMatchFastText quantises synthetic models with the CLI
// (product quantisation with and without norm quantisation, output
// quantisation and pruning) and compares predictions.
func TestQuantizedModelsMatchFastText(t *testing.T) {
	cli := fastTextCLI(t)
	dir := t.TempDir()
	cases := []struct {
		name   string
		labels int32
		flags  []string
	}{
		{"pq-dsub3", 8, []string{"-dsub", "3"}},
		{"pq-qnorm-cutoff", 8, []string{"-dsub", "2", "-qnorm", "-cutoff", "1500"}},
		{"pq-qout", 300, []string{"-dsub", "4", "-qnorm", "-qout"}},
	}
	for i, c := range cases {
		s := newSynth(int64(20+i), lossSoftmax, c.labels, 2, 2, 4)
		base := filepath.Join(dir, c.name)
		writeFile(t, base+".bin", s.encode())
		linesPath := base + ".txt"
		writeFile(t, linesPath, randLines(int64(200+i), s, 300))
		args := append([]string{"quantize", "-input", linesPath, "-output", base}, c.flags...)
		if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
			t.Fatalf("fasttext %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		m, err := Load(base + ".ftz")
		if err != nil {
			t.Fatal(err)
		}
		if !m.quantized {
			t.Fatalf("%s: model not read as quantised", c.name)
		}
		for _, k := range []int{1, -1} {
			checkAgainstCLI(t, cli, base+".ftz", m, linesPath, k, "")
		}
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
