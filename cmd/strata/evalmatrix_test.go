package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/strata-nmt/strata/analysis"
)

func runCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetErr(&bytes.Buffer{})
	rootCmd.SetArgs(args)
	err := rootCmd.Execute()
	return out.String(), err
}

func TestEvalMatrixTableAndLLRPlot(t *testing.T) {
	dir := t.TempDir()
	m := &analysis.MatrixResult{Pivot: "en", Directions: []analysis.DirectionResult{
		{Direction: analysis.Direction{Src: "en", Tgt: "de"}, Kind: analysis.Supervised, Scores: analysis.Scores{BLEU: 30}},
		{Direction: analysis.Direction{Src: "de", Tgt: "fr"}, Kind: analysis.ZeroShot, Scores: analysis.Scores{BLEU: 10, OffTarget: 0.25},
			Pivot: &analysis.Scores{BLEU: 20}},
	}}
	m.Supervised, m.ZeroShot, m.PivotZeroShot = analysis.Averages(m.Directions)
	path := filepath.Join(dir, "m.json")
	if err := analysis.WriteJSON(path, m); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, "eval-matrix", "table", "Post="+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| pivot through en (Post) | 20.00 (0.00%)", "| Post | 10.00 (25.00%) | – | – | 0.00 | 30.00 (0.00%) |"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if _, err := runCLI(t, "eval-matrix", "table", path); err == nil {
		t.Error("table accepted an argument without NAME=")
	}
	if _, err := runCLI(t, "eval-matrix", "table", "--baseline", "Pre", "Post="+path); err == nil || !strings.Contains(err.Error(), "none of the systems") {
		t.Errorf("unknown baseline: error %v", err)
	}
	// The matrix has no kept hypotheses: the test names what is missing.
	if _, err := runCLI(t, "eval-matrix", "table", "--baseline", "Pre", "Post="+path, "Pre="+path); err == nil {
		t.Error("a significance test without hypotheses succeeded")
	}
	if _, err := runCLI(t, "eval-matrix", "table", "--baseline", "Pre", "--against-pivot", "Post="+path, "Pre="+path); err == nil ||
		!strings.Contains(err.Error(), "give one") {
		t.Errorf("--baseline with --against-pivot: error %v", err)
	}
	if _, err := runCLI(t, "eval-matrix", "table", "--baseline", "", "--against-pivot", "Post="+path); err == nil ||
		!strings.Contains(err.Error(), "Post vs Post via en, de-fr") {
		t.Errorf("--against-pivot without kept outputs: error %v, want the comparison and direction named", err)
	}
	runCLI(t, "eval-matrix", "table", "--baseline", "", "--against-pivot=false", "Post="+path) // flags persist between runs

	nan := analysis.Ratio(math.NaN())
	l := &analysis.LLRResult{EncoderLayers: 1, DecoderLayers: 1, Splits: []analysis.LLRSplitResult{
		{Name: "supervised", Source: []analysis.Ratio{0.9, 0.2}, Target: []analysis.Ratio{0.3, 0.95}},
		{Name: "zero-shot", Source: []analysis.Ratio{0.8, nan}, Target: []analysis.Ratio{0.1, nan}},
	}}
	lp := filepath.Join(dir, "llr.json")
	if err := analysis.WriteJSON(lp, l); err != nil {
		t.Fatal(err)
	}
	fig := filepath.Join(dir, "fig")
	if out, err = runCLI(t, "analyze", "llr-plot", "--out", fig, "Pre="+lp, "Post="+lp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "| L2 | 20.0 | 95.0 | 20.0 | 95.0 |") || !strings.Contains(out, "| L2 | – | – |") {
		t.Errorf("llr-plot table:\n%s", out)
	}
	for _, f := range []string{"llr.md", "llr_supervised.png", "llr_zero-shot.png"} {
		if _, err := os.Stat(filepath.Join(fig, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestEvalMatrixAndLLRNeedTheirFlags(t *testing.T) {
	if _, err := runCLI(t, "eval-matrix", "--model", "x"); err == nil || !strings.Contains(err.Error(), "--test") {
		t.Errorf("eval-matrix without --test: %v", err)
	}
	if _, err := runCLI(t, "analyze", "llr", "--model", "x", "--test", "y"); err == nil || !strings.Contains(err.Error(), "--dev") {
		t.Errorf("llr without --dev: %v", err)
	}
}

// seedFixture writes a matrix.json and its kept hypotheses for one system
// of one seed: de-fr (zero-shot) and en-de (supervised) on refs, with the
// reference itself as output when perfect and every line cut short
// otherwise.
func seedFixture(t *testing.T, dir string, refs map[string]string, lines []string, perfect bool, zeroBLEU float64) string {
	t.Helper()
	hyp := make([]string, len(lines))
	for i, l := range lines {
		hyp[i] = l
		if !perfect {
			hyp[i] = strings.Join(strings.Fields(l)[:2], " ")
		}
	}
	m := &analysis.MatrixResult{TestSet: filepath.Dir(refs["fr"]), Pivot: "en", Directions: []analysis.DirectionResult{
		{Direction: analysis.Direction{Src: "de", Tgt: "fr"}, Kind: analysis.ZeroShot, Ref: refs["fr"]},
		{Direction: analysis.Direction{Src: "en", Tgt: "de"}, Kind: analysis.Supervised, Ref: refs["de"]},
	}}
	for i := range m.Directions {
		m.Directions[i].Lines = len(lines)
		m.Directions[i].BLEU = zeroBLEU
		writeLines(t, filepath.Join(dir, "hyp", m.Directions[i].String()+".txt"), hyp)
	}
	m.Supervised, m.ZeroShot, m.PivotZeroShot = analysis.Averages(m.Directions)
	p := filepath.Join(dir, "matrix.json")
	if err := analysis.WriteJSON(p, m); err != nil {
		t.Fatal(err)
	}
	return p
}

func writeLines(t *testing.T, path string, lines []string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// resetSeedFlags clears --seed, which cobra keeps (and appends to) between
// executions in one process.
func resetSeedFlags(t *testing.T) {
	c, _, err := rootCmd.Find([]string{"eval-matrix", "seeds"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Flags().Lookup("seed").Value.(pflag.SliceValue).Replace(nil); err != nil {
		t.Fatal(err)
	}
}

func TestEvalMatrixSeeds(t *testing.T) {
	dir := t.TempDir()
	var lines []string
	for i := 0; i < 30; i++ {
		lines = append(lines, fmt.Sprintf("sentence %d has several words number %d here", i, i*7))
	}
	refs := map[string]string{"fr": filepath.Join(dir, "test", "fr.txt"), "de": filepath.Join(dir, "test", "de.txt")}
	for _, p := range refs {
		writeLines(t, p, lines)
	}
	var args []string
	for s, bleu := range []float64{10, 12, 14} {
		base := seedFixture(t, filepath.Join(dir, fmt.Sprint(s), "pre"), refs, lines, false, bleu)
		sys := seedFixture(t, filepath.Join(dir, fmt.Sprint(s), "post"), refs, lines, true, bleu+20)
		args = append(args, "--seed", base+","+sys)
	}
	run := func(extra ...string) (string, error) {
		resetSeedFlags(t)
		return runCLI(t, append([]string{"eval-matrix", "seeds", "--baseline-name", "pre", "--system-name", "post",
			"--bootstrap-samples", "200"}, extra...)...)
	}
	out, err := run(args...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| pre | 12.00 ± 2.00 |", "| post | 32.00 ± 2.00 |", "| zero-shot BLEU |",
		"| 3 of 3 | confirmed (post better) |", "| supervised BLEU |", "two-sided paired bootstrap"} {
		if !strings.Contains(out, want) {
			t.Errorf("seeds lacks %q:\n%s", want, out)
		}
	}
	if _, err := run(args[:2]...); err == nil || !strings.Contains(err.Error(), "at least 2") {
		t.Errorf("one seed: %v", err)
	}
	if _, err := run("--seed", "a.json", "--seed", "b.json"); err == nil || !strings.Contains(err.Error(), "BASE_MATRIX.json,SYSTEM_MATRIX.json") {
		t.Errorf("--seed without a comma: %v", err)
	}
	// A third seed scored against other references than the first.
	swapped := map[string]string{"fr": refs["de"], "de": refs["fr"]}
	otherBase := seedFixture(t, filepath.Join(dir, "other", "pre"), swapped, lines, false, 10)
	otherSys := seedFixture(t, filepath.Join(dir, "other", "post"), swapped, lines, true, 30)
	bad := append(append([]string{}, args[:4]...), "--seed", otherBase+","+otherSys)
	if _, err := run(bad...); err == nil || !strings.Contains(err.Error(), "seed 3: "+otherBase) {
		t.Errorf("a seed on other references: %v, want %s named", err, otherBase)
	}
}
