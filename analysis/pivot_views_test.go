package analysis

import (
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/metrics"
)

// copierMatrix evaluates the copier on an n-way test set of n sentences
// per language, its outputs (pivot legs included) kept under hyp.
func copierMatrix(t *testing.T, n int) (m *MatrixResult, hyp string) {
	t.Helper()
	dir := t.TempDir()
	writeNWay(t, filepath.Join(dir, "test"), "test", sentences(n, 6))
	ts, err := ReadTestSet(filepath.Join(dir, "test"), testLangs, 0)
	if err != nil {
		t.Fatal(err)
	}
	hyp = filepath.Join(dir, "hyp")
	m, err = EvalMatrix(context.Background(), &copier{oracle{ts: ts}}, ts, MatrixOptions{Detector: lexDetector{}, HypDir: hyp})
	if err != nil {
		t.Fatal(err)
	}
	return m, hyp
}

// The copier copies its input in zero-shot directions but translates
// both pivot legs perfectly: pivoting must win every direction, and the
// test must rescore the kept pivot outputs to the matrix's pivot BLEU.
func TestPivotViewsTestDirectAgainstPivot(t *testing.T) {
	m, hyp := copierMatrix(t, 60)
	direct, pivot, err := PivotViews(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(direct.Directions) != 6 || len(pivot.Directions) != 6 || !reflect.DeepEqual(direct.ZeroShot, m.ZeroShot) || pivot.ZeroShot.BLEU != m.PivotZeroShot.BLEU {
		t.Fatalf("views: %d and %d rows, averages %+v / %+v; matrix %+v / %+v", len(direct.Directions), len(pivot.Directions),
			direct.ZeroShot, pivot.ZeroShot, m.ZeroShot, *m.PivotZeroShot)
	}
	s, err := CompareMatrices("direct", direct, hyp, "pivot", pivot, hyp, metrics.BootstrapOptions{Samples: 100}, lexDetector{})
	if err != nil {
		t.Fatal(err)
	}
	if s.ZeroShot != (SignificanceCount{Directions: 6, Worse: 6}) || s.Supervised.Directions != 0 || s.SupervisedAverage != nil {
		t.Errorf("counts: zero-shot %+v, supervised %+v; want 6 worse of 6 and no supervised rows", s.ZeroShot, s.Supervised)
	}
	for i, d := range s.Tests {
		if row := m.Directions[indexOf(m, d.Direction)]; d.Baseline != row.Pivot.BLEU || d.System != row.BLEU {
			t.Errorf("%s (%d): tested %.2f against %.2f, the matrix has %.2f against pivot %.2f", d.Direction, i, d.System, d.Baseline,
				row.BLEU, row.Pivot.BLEU)
		}
	}
	if a := s.ZeroShotAverage; a == nil || a.OffTargetDiff.Value <= 0.9 {
		t.Errorf("average: %+v; the copies are all off target, the pivot outputs none", a)
	}
	var out strings.Builder
	if err := SignificanceMarkdown(&out, []*Significance{s}); err != nil || strings.Contains(out.String(), "supervised:") {
		t.Errorf("report of a test without supervised rows (%v):\n%s", err, out.String())
	}

	m.Directions = m.Directions[:1]
	if _, _, err := PivotViews(m); err == nil || !strings.Contains(err.Error(), "no pivot results") {
		t.Errorf("a matrix without pivot rows: error %v", err)
	}
}

func indexOf(m *MatrixResult, d Direction) int {
	for i, r := range m.Directions {
		if r.Direction == d {
			return i
		}
	}
	return -1
}

func TestPivotHypFileFollowsTheTestPart(t *testing.T) {
	row := DirectionResult{Direction: Direction{Src: "it", Tgt: "nl"}, Hyp: "ita-nld/it-nl.txt"}
	if got := pivotHypFile(row, "en"); got != filepath.Join("ita-nld", "pivot", "it-en-nl.txt") {
		t.Errorf("suite row: %s", got)
	}
	row.Hyp = ""
	if got := pivotHypFile(row, "en"); got != filepath.Join("pivot", "it-en-nl.txt") {
		t.Errorf("single set row: %s", got)
	}
}

// An archive that kept the direct outputs but not the pivot ones still
// gets the references' language ID: the direct rows have it, the pivot
// rows print "–"; a missing direct output stays an error.
func TestReferenceLIDWithoutPivotOutputs(t *testing.T) {
	m, hyp := copierMatrix(t, 20)
	for i := range m.Directions {
		m.Directions[i].RefLID = nil
		if p := m.Directions[i].Pivot; p != nil {
			p.RefLID = nil
		}
	}
	if err := os.RemoveAll(filepath.Join(hyp, "pivot")); err != nil {
		t.Fatal(err)
	}
	if err := AddReferenceLID(m, hyp, lexDetector{}); err != nil {
		t.Fatal(err)
	}
	pivots := 0
	for _, d := range m.Directions {
		if d.RefLID == nil {
			t.Errorf("%s: no reference LID though its output was kept", d.Direction)
		}
		if d.Pivot != nil {
			pivots++
			if d.Pivot.RefLID != nil {
				t.Errorf("%s via pivot: reference LID %+v without the pivot outputs", d.Direction, *d.Pivot.RefLID)
			}
		}
	}
	if pivots == 0 {
		t.Fatal("no pivot rows: the case is not tested")
	}
	if err := os.Remove(filepath.Join(hyp, hypFile(m.Directions[0]))); err != nil {
		t.Fatal(err)
	}
	m.Directions[0].RefLID = nil
	if err := AddReferenceLID(m, hyp, lexDetector{}); err == nil {
		t.Error("a missing direct output: no error")
	}
}

// TestReferenceLIDReadsGzippedPivotOutputs: an archive that keeps the pivot
// outputs gzipped (FILE.gz, as textio reads them) has them rated like
// plain files, not taken for missing.
func TestReferenceLIDReadsGzippedPivotOutputs(t *testing.T) {
	m, hyp := copierMatrix(t, 20)
	for i := range m.Directions {
		if p := m.Directions[i].Pivot; p != nil {
			p.RefLID = nil
		}
	}
	gzipped := 0
	err := filepath.WalkDir(filepath.Join(hyp, "pivot"), func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		gzipped++
		return gzipInPlace(path)
	})
	if err != nil || gzipped == 0 {
		t.Fatalf("gzipping the pivot outputs: %v (%d files)", err, gzipped)
	}
	if err := AddReferenceLID(m, hyp, lexDetector{}); err != nil {
		t.Fatal(err)
	}
	for _, d := range m.Directions {
		if d.Pivot != nil && d.Pivot.RefLID == nil {
			t.Errorf("%s via pivot: no reference LID though its output is kept gzipped", d.Direction)
		}
	}
}

// gzipInPlace replaces path by path.gz holding the same bytes.
func gzipInPlace(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(path+".gz", buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Remove(path)
}
