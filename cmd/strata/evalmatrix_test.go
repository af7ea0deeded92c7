package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
