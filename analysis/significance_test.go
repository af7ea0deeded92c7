package analysis

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/langid"
	"github.com/strata-nmt/strata/metrics"
)

// copier translates supervised directions perfectly and copies the source
// in zero-shot ones (every output off-target).
type copier struct{ oracle }

func (c *copier) Translate(ctx context.Context, src, tgt string, lines []string) ([]string, error) {
	if src != "en" && tgt != "en" {
		return append([]string(nil), lines...), nil
	}
	return c.oracle.Translate(ctx, src, tgt, lines)
}

// evalTo evaluates tr on ts and writes the outputs to dir, as eval-matrix
// does.
func evalTo(t *testing.T, tr Translator, ts *TestSet, dir string) *MatrixResult {
	t.Helper()
	res, err := EvalMatrix(context.Background(), tr, ts, MatrixOptions{Detector: lexDetector{}, HypDir: filepath.Join(dir, "hyp"), NoPivot: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteMatrixOutputs(dir, res); err != nil {
		t.Fatal(err)
	}
	back, err := ReadMatrix(filepath.Join(dir, MatrixJSON))
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// goodAndBad evaluates, on an n-line test set in dir/test, a system that
// translates perfectly (good) and one that copies its input in zero-shot
// directions (bad), returning both results and their hypothesis folders.
func goodAndBad(t *testing.T, dir string, n int) (good, bad *MatrixResult, hg, hb string) {
	t.Helper()
	writeNWay(t, filepath.Join(dir, "test"), "test", sentences(n, 6))
	ts, err := ReadTestSet(filepath.Join(dir, "test"), testLangs, 0)
	if err != nil {
		t.Fatal(err)
	}
	good = evalTo(t, &oracle{ts: ts}, ts, filepath.Join(dir, "good"))
	bad = evalTo(t, &copier{oracle{ts: ts}}, ts, filepath.Join(dir, "bad"))
	return good, bad, HypDirOf(filepath.Join(dir, "good", MatrixJSON)), HypDirOf(filepath.Join(dir, "bad", MatrixJSON))
}

func TestCompareMatricesCountsSignificantDirections(t *testing.T) {
	dir := t.TempDir()
	good, bad, hg, hb := goodAndBad(t, dir, 80)
	opt := metrics.BootstrapOptions{Samples: 200}

	s, err := CompareMatrices("Post", good, hg, "Pre", bad, hb, opt, lexDetector{})
	if err != nil {
		t.Fatal(err)
	}
	checkAverages(t, s, good, bad)
	if _, err := CompareMatrices("Post", good, hg, "Pre", bad, hb, opt, constDetector("de")); err == nil || !strings.Contains(err.Error(), "eval-matrix recorded") {
		t.Errorf("an identifier other than eval-matrix's: error %v", err)
	}
	if s.ZeroShot != (SignificanceCount{Directions: 6, Better: 6}) || s.Supervised != (SignificanceCount{Directions: 6}) {
		t.Errorf("counts: zero-shot %+v supervised %+v; want 6 better of 6, supervised identical (0 of 6)", s.ZeroShot, s.Supervised)
	}
	for i, d := range s.Tests {
		// The test rescored the kept hypotheses against the right reference.
		if d.System != good.Directions[i].BLEU || d.Baseline != bad.Directions[i].BLEU {
			t.Errorf("%s: BLEU %.4f vs %.4f, matrices have %.4f vs %.4f", d.Direction, d.System, d.Baseline,
				good.Directions[i].BLEU, bad.Directions[i].BLEU)
		}
	}
	rev, err := CompareMatrices("Pre", bad, hb, "Post", good, hg, opt, nil)
	if err != nil || rev.ZeroShot != (SignificanceCount{Directions: 6, Worse: 6}) {
		t.Errorf("reversed: %v %+v; want 6 worse of 6", err, rev)
	}
	self, err := CompareMatrices("Post", good, hg, "Post2", good, hg, opt, nil)
	if err != nil || self.ZeroShot.Better+self.ZeroShot.Worse != 0 {
		t.Errorf("a system against itself: %v %+v; want nothing significant", err, self)
	}

	var sb strings.Builder
	if err := SummaryMarkdown(&sb, []SummaryRow{{Name: "Pre", Result: bad}, {Name: "Post", Result: good, Sig: s}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| Pre: 6↑ 0↓ 0= of 6 |", "| Pre |", " – |", "Zero-shot: Post significantly better than Pre (p < 0.05) in 6 of 6 directions",
		"| de-fr | zero-shot |", "| better |", "nrefs:1|bs:200|seed:12345",
		"zero-shot vs baseline, p < 0.05 (two-sided paired bootstrap, 200 resamples) |",
		"### Post against Pre: two-sided paired bootstrap, 200 resamples per direction",
		"Average over the 6 zero-shot directions (paired bootstrap resampling every direction's lines within it): BLEU ",
		"off-target 100.00% → 81.67%, Δ -18.33 points (95% CI ", "Average over the 6 supervised directions"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sb.String())
		}
	}

	// Evaluations of different lines cannot be compared.
	short, _ := ReadTestSet(filepath.Join(dir, "test"), testLangs, 40)
	fewer := evalTo(t, &oracle{ts: short}, short, filepath.Join(dir, "short"))
	if _, err := CompareMatrices("Short", fewer, HypDirOf(filepath.Join(dir, "short", MatrixJSON)), "Pre", bad, hb, opt, nil); err == nil ||
		!strings.Contains(err.Error(), "40 lines") {
		t.Errorf("different line counts: error %v", err)
	}
}

// checkAverages: the averaged tests of a perfect system (good) against
// one that copies its input in zero-shot directions (bad).
func checkAverages(t *testing.T, s *Significance, good, bad *MatrixResult) {
	t.Helper()
	z, v := s.ZeroShotAverage, s.SupervisedAverage
	if z == nil || v == nil || z.Directions != 6 || v.Directions != 6 {
		t.Fatalf("averages %+v %+v; want 6 directions each", z, v)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if !near(z.System, good.ZeroShot.BLEU) || !near(z.Baseline, bad.ZeroShot.BLEU) || !(z.Diff.Lower > 0) || z.Diff.Lower > z.Diff.Value {
		t.Errorf("zero-shot average %+v; matrices %v / %v", z, good.ZeroShot.BLEU, bad.ZeroShot.BLEU)
	}
	o := z.OffTargetDiff
	if !z.HasOffTarget || !near(z.BaselineOffTarget, bad.ZeroShot.OffTarget) || !near(z.SystemOffTarget, good.ZeroShot.OffTarget) ||
		!near(o.Value, good.ZeroShot.OffTarget-bad.ZeroShot.OffTarget) || !(o.Lower < o.Value && o.Value < o.Upper && o.Upper < 0) {
		t.Errorf("zero-shot off-target %+v; matrices %v / %v", z, good.ZeroShot.OffTarget, bad.ZeroShot.OffTarget)
	}
	if v.Diff.Value != 0 || v.Diff.Lower != 0 || v.Diff.Upper != 0 {
		t.Errorf("supervised directions are identical, the average differs: %+v", v.Diff)
	}
}

// constDetector identifies every line as one language.
type constDetector string

func (c constDetector) Name() string { return "constant " + string(c) }
func (c constDetector) Predict(string, int, float32) []langid.Prediction {
	return []langid.Prediction{{Label: "__label__" + string(c), Prob: 1}}
}

// Results copied to another machine: the recorded reference paths are
// gone, and the references are found under the same names in the test set
// as given to eval-matrix.
func TestCompareMatricesFindsMovedReferences(t *testing.T) {
	dir := t.TempDir()
	good, bad, hg, hb := goodAndBad(t, dir, 40)
	opt := metrics.BootstrapOptions{Samples: 50}
	want, err := CompareMatrices("Post", good, hg, "Pre", bad, hb, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*MatrixResult{good, bad} {
		for i := range m.Directions {
			m.Directions[i].Ref = filepath.Join("/no/such/machine", filepath.Base(m.Directions[i].Ref))
		}
	}
	got, err := CompareMatrices("Post", good, hg, "Pre", bad, hb, opt, nil)
	if err != nil || got.ZeroShotAverage.Diff != want.ZeroShotAverage.Diff || got.ZeroShot != want.ZeroShot {
		t.Fatalf("moved references: %v, %+v; want %+v", err, got, want)
	}
	good.TestSet, bad.TestSet = "/no/such/test", "/no/such/test"
	if _, err := CompareMatrices("Post", good, hg, "Pre", bad, hb, opt, nil); err == nil || !strings.Contains(err.Error(), "/no/such/machine/test.") {
		t.Errorf("references nowhere: error %v, want one naming the recorded path", err)
	}
}
