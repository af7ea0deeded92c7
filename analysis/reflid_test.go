package analysis

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/langid"
)

// mapDetector identifies each line by a fixed table ("" for none).
type mapDetector map[string]string

func (m mapDetector) Name() string { return "table" }
func (m mapDetector) Predict(line string, _ int, _ float32) []langid.Prediction {
	if m[line] == "" {
		return nil
	}
	return []langid.Prediction{{Label: "__label__" + m[line], Prob: 1}}
}

// Four references into Dutch, one identified as German and one as
// nothing: the identifier errs on half of them. The outputs are off
// target on lines 1, 2 and 3; over the two lines whose reference is
// identified as Dutch (0 and 3) one output is off target.
func TestReferenceLID(t *testing.T) {
	det := mapDetector{"r0": "nl", "r1": "de", "r2": "", "r3": "nl", "h0": "nl", "h1": "de", "h2": "en", "h3": "it"}
	r := ReferenceLID([]string{"h0", "h1", "h2", "h3"}, []string{"r0", "r1", "r2", "r3"}, "nl", det)
	if r.OffTarget != 0.5 || r.OnTargetLines != 2 || r.HypOffTarget != 0.5 {
		t.Errorf("%+v, want refs 0.5 off target, 2 on target, outputs 0.5 off target there", *r)
	}
	if r := ReferenceLID([]string{"h0"}, []string{"r1"}, "nl", det); r.OffTarget != 1 || r.OnTargetLines != 0 || r.HypOffTarget != 0 {
		t.Errorf("no reference on target: %+v", *r)
	}
}

// eval-matrix records the references' language ID in every row and
// average and prints it beside every off-target rate; a matrix written
// without it gets the same numbers from AddReferenceLID.
func TestMatrixRecordsReferenceLID(t *testing.T) {
	dir := t.TempDir()
	good, bad, _, hb := goodAndBad(t, dir, 30)
	for _, m := range []*MatrixResult{good, bad} {
		for _, d := range m.Directions {
			if d.RefLID == nil || d.RefLID.OffTarget != 0 || d.RefLID.OnTargetLines != d.Lines || d.RefLID.HypOffTarget != d.OffTarget {
				t.Fatalf("%s: %+v (off-target %v); the toy references are all identified", d.Direction, d.RefLID, d.OffTarget)
			}
		}
	}
	if z := bad.ZeroShot.RefLID; z == nil || z.HypOffTarget != bad.ZeroShot.OffTarget || z.OnTargetLines != 6*30 {
		t.Errorf("zero-shot average %+v", z)
	}
	var sb strings.Builder
	if err := bad.WriteMarkdown(&sb); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| off-target | refs off-target | off-target, ref. on target |", "| zero-shot | 6 |",
		"Language identification of the references (toy lexicon detector), per target language", "| test | de | 30 | 0.00% |"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("matrix.md lacks %q:\n%s", want, sb.String())
		}
	}
	sb.Reset()
	if err := SummaryMarkdown(&sb, []SummaryRow{{Name: "bad", Result: bad}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "| zero-shot refs off-target | zero-shot off-target, ref. on target |") ||
		!strings.Contains(sb.String(), "| bad | "+strings.Split(strings.Split(sb.String(), "| bad | ")[1], " |")[0]+" | 0.00% | 100.00% |") {
		t.Errorf("summary:\n%s", sb.String())
	}

	old, _ := ReadMatrix(filepath.Join(dir, "bad", MatrixJSON))
	want := old.ZeroShot.RefLID
	for i := range old.Directions {
		old.Directions[i].RefLID = nil
	}
	old.Supervised, old.ZeroShot, old.PivotZeroShot = Averages(old.Directions)
	if old.ZeroShot.RefLID != nil {
		t.Fatal("average of rows without reference LID has one")
	}
	if err := AddReferenceLID(old, hb, lexDetector{}); err != nil {
		t.Fatal(err)
	}
	if old.ZeroShot.RefLID == nil || *old.ZeroShot.RefLID != *want {
		t.Errorf("recomputed %+v, eval-matrix recorded %+v", old.ZeroShot.RefLID, want)
	}
	// another identifier than eval-matrix's is refused
	for i := range old.Directions {
		old.Directions[i].RefLID = nil
	}
	if err := AddReferenceLID(old, hb, constDetector("xx")); err == nil || !strings.Contains(err.Error(), "off-target rate") {
		t.Errorf("other identifier: %v", err)
	}
}

// A real identifier errs on some references: the rate over the lines
// whose reference is identified as the target leaves those lines out.
func TestReferenceLIDAveragesOverDirections(t *testing.T) {
	rows := []DirectionResult{
		{Direction: Direction{"it", "nl"}, Kind: ZeroShot, Scores: Scores{OffTarget: 0.2, RefLID: &RefLID{OffTarget: 0.1, OnTargetLines: 9, HypOffTarget: 0.1}}},
		{Direction: Direction{"nl", "it"}, Kind: ZeroShot, Scores: Scores{OffTarget: 0.4, RefLID: &RefLID{OffTarget: 0.3, OnTargetLines: 7, HypOffTarget: 0.2}}},
	}
	_, zs, _ := Averages(rows)
	if r := zs.RefLID; r == nil || math.Abs(r.OffTarget-0.2) > 1e-12 || math.Abs(r.HypOffTarget-0.15) > 1e-12 || r.OnTargetLines != 16 {
		t.Errorf("average %+v", zs.RefLID)
	}
	rows[1].RefLID = nil
	if _, zs, _ := Averages(rows); zs.RefLID != nil {
		t.Errorf("a row without reference LID: average %+v, want none", zs.RefLID)
	}
}
