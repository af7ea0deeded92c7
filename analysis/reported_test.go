package analysis

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadReported(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "paper.tsv")
	os.WriteFile(path, []byte("# Table 2, IWSLT\n\npre-senc\t4.9\t64.84\t31.5\npivot 20.0 - -\npre-senc-simple 5.9 - -\n"), 0o644)
	rep, err := ReadReported(path)
	if err != nil {
		t.Fatal(err)
	}
	if r := rep["pre-senc"]; r.ZeroShotBLEU != 4.9 || r.ZeroShotOffTarget != 64.84 || r.SupervisedBLEU != 31.5 {
		t.Errorf("pre-senc: %+v", r)
	}
	if r := rep["pivot"]; r.ZeroShotBLEU != 20 || !math.IsNaN(r.ZeroShotOffTarget) || !math.IsNaN(r.SupervisedBLEU) {
		t.Errorf("pivot: %+v", r)
	}
	for _, bad := range []struct{ text, want string }{
		{"a 1 2\n", "paper.tsv:1: 3 fields, want 4"},
		{"# c\na 1 x 3\n", `paper.tsv:2: field 3 "x": want a score`},
		{"a 1 2 300\n", `field 4 "300"`},
		{"a 1 2 3\na 4 5 6\n", `paper.tsv:2: system "a" given twice`},
	} {
		os.WriteFile(path, []byte(bad.text), 0o644)
		if _, err := ReadReported(path); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want %q", bad.text, err, bad.want)
		}
	}
}

func TestSummaryMarkdownReported(t *testing.T) {
	res := &MatrixResult{Pivot: "en", ZeroShot: Average{Directions: 6, BLEU: 9.5, CHRF: 33, OffTarget: 0.1},
		Supervised:    Average{Directions: 6, BLEU: 20, CHRF: 49, OffTarget: 0.05},
		PivotZeroShot: &Average{Directions: 6, BLEU: 12, CHRF: 40}}
	nan := math.NaN()
	rep := map[string]Reported{"pre-senc": {4.9, 64.84, 31.5}, "pivot": {20, nan, nan}}
	var sb strings.Builder
	rows := []SummaryRow{{Name: "pre-senc@12000", Result: res}, {Name: "other", Result: res}}
	if err := SummaryMarkdownReported(&sb, rows, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| system | reported zero-shot BLEU (off-target) | reported supervised BLEU | zero-shot BLEU (off-target) |",
		"|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
		"| pre-senc@12000 | 4.9 (64.84%) | 31.5 | 9.50 (10.00%) | – | – | 33.00 | 20.00 (5.00%) | 49.00 |",
		"| other | – | – | 9.50 (10.00%) |",
		"| pivot through en (other) | 20.0 | – | 12.00 (0.00%) | – | – | 40.00 | – | – |",
	} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sb.String())
		}
	}
	sb.Reset()
	if err := SummaryMarkdown(&sb, rows); err != nil || strings.Contains(sb.String(), "reported") {
		t.Errorf("without reported scores: %v\n%s", err, sb.String())
	}
}
