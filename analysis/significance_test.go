package analysis

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

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

func TestCompareMatricesCountsSignificantDirections(t *testing.T) {
	dir := t.TempDir()
	writeNWay(t, filepath.Join(dir, "test"), "test", sentences(80, 6))
	ts, err := ReadTestSet(filepath.Join(dir, "test"), testLangs, 0)
	if err != nil {
		t.Fatal(err)
	}
	good := evalTo(t, &oracle{ts: ts}, ts, filepath.Join(dir, "good"))
	bad := evalTo(t, &copier{oracle{ts: ts}}, ts, filepath.Join(dir, "bad"))
	hg, hb := HypDirOf(filepath.Join(dir, "good", MatrixJSON)), HypDirOf(filepath.Join(dir, "bad", MatrixJSON))
	opt := metrics.BootstrapOptions{Samples: 200}

	s, err := CompareMatrices("Post", good, hg, "Pre", bad, hb, opt)
	if err != nil {
		t.Fatal(err)
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
	rev, err := CompareMatrices("Pre", bad, hb, "Post", good, hg, opt)
	if err != nil || rev.ZeroShot != (SignificanceCount{Directions: 6, Worse: 6}) {
		t.Errorf("reversed: %v %+v; want 6 worse of 6", err, rev)
	}
	self, err := CompareMatrices("Post", good, hg, "Post2", good, hg, opt)
	if err != nil || self.ZeroShot.Better+self.ZeroShot.Worse != 0 {
		t.Errorf("a system against itself: %v %+v; want nothing significant", err, self)
	}

	var sb strings.Builder
	if err := SummaryMarkdown(&sb, []SummaryRow{{Name: "Pre", Result: bad}, {Name: "Post", Result: good, Sig: s}}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| Pre: 6↑ 0↓ 0= of 6 |", "| Pre |", " – |", "Zero-shot: Post significantly better than Pre (p < 0.05) in 6 of 6 directions",
		"| de-fr | zero-shot |", "| better |", "nrefs:1|bs:200|seed:12345"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sb.String())
		}
	}

	// Evaluations of different lines cannot be compared.
	short, _ := ReadTestSet(filepath.Join(dir, "test"), testLangs, 40)
	fewer := evalTo(t, &oracle{ts: short}, short, filepath.Join(dir, "short"))
	if _, err := CompareMatrices("Short", fewer, HypDirOf(filepath.Join(dir, "short", MatrixJSON)), "Pre", bad, hb, opt); err == nil ||
		!strings.Contains(err.Error(), "40 lines") {
		t.Errorf("different line counts: error %v", err)
	}
}
