package analysis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/metrics"
)

// iso3 names the toy languages as Tatoeba does.
var iso3 = map[string]string{"en": "eng", "de": "deu", "fr": "fra", "nl": "nld"}

// writePair writes a Tatoeba-style pair directory dir/A3-B3/test.{A3,B3}
// with the given sentences.
func writePair(t *testing.T, dir, a, b string, sents [][]int) string {
	t.Helper()
	sub := filepath.Join(dir, iso3[a]+"-"+iso3[b])
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{a, b} {
		var sb strings.Builder
		for _, s := range sents {
			sb.WriteString(render(l, s) + "\n")
		}
		if err := os.WriteFile(filepath.Join(sub, "test."+iso3[l]), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return sub
}

func TestReadTestSuitePairs(t *testing.T) {
	dir := t.TempDir()
	all := sentences(30, 3)
	one := writePair(t, dir, "de", "fr", all[:10])
	writePair(t, dir, "de", "nl", all[10:30])
	os.MkdirAll(filepath.Join(dir, "ara-deu"), 0o755)
	os.WriteFile(filepath.Join(dir, "ara-deu", "test.ara"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "ara-deu", "test.deu"), []byte("y\n"), 0o644)

	s, err := ReadTestSuite(dir, []string{"en", "de", "fr", "nl"}, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.Parts {
		got = append(got, p.Name+":"+strings.Join(p.Languages(), ","))
	}
	// ara-deu has one of the languages only: skipped, not an error.
	if strings.Join(got, " ") != "deu-fra:de,fr deu-nld:de,nl" {
		t.Errorf("parts %v", got)
	}
	if s.Parts[1].Lines["nl"][0] != render("nl", all[10]) || s.Parts[1].Len() != 20 {
		t.Errorf("deu-nld read wrongly: %q, %d lines", s.Parts[1].Lines["nl"][0], s.Parts[1].Len())
	}
	if f := s.Files(); f["deu-fra/fr"] != filepath.Join(dir, "deu-fra", "test.fra") || len(f) != 4 {
		t.Errorf("files %v", f)
	}
	// One pair directory is a flat set of two languages.
	flat, err := ReadTestSuite(one, []string{"en", "de", "fr", "nl"}, false, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(flat.Parts) != 1 || flat.Parts[0].Name != "" || flat.Parts[0].Len() != 4 || flat.Parts[0].Lines["fr"] == nil {
		t.Errorf("flat pair: %+v", flat.Parts)
	}
	if _, err := ReadTestSuite(one, []string{"de", "nl"}, true, 0); err == nil || !strings.Contains(err.Error(), "no file for language nl") {
		t.Errorf("strict flat set without nl: error %v", err)
	}
	if _, err := ReadTestSuite(dir, []string{"ru", "zh"}, true, 0); err == nil {
		t.Error("a suite without any usable pair was accepted")
	}
}

func TestEvalSuiteBothDirectionsOfEachPair(t *testing.T) {
	dir := t.TempDir()
	all := sentences(30, 3)
	writeNWay(t, filepath.Join(dir, "nway"), "test", all)
	full, err := ReadTestSet(filepath.Join(dir, "nway"), testLangs, 0)
	if err != nil {
		t.Fatal(err)
	}
	pairs := filepath.Join(dir, "tatoeba")
	writePair(t, pairs, "de", "fr", all[:24])
	writePair(t, pairs, "de", "nl", all[6:30])
	s, err := ReadTestSuite(pairs, testLangs, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	or := &oracle{ts: full}
	hyp := filepath.Join(dir, "hyp")
	res, err := EvalSuite(context.Background(), or, s, MatrixOptions{Detector: lexDetector{}, HypDir: hyp})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	zs := 0.0
	for _, d := range res.Directions {
		got = append(got, d.Part+":"+d.String()+":"+d.Kind)
		p := s.Parts[0]
		if d.Part == "deu-nld" {
			p = s.Parts[1]
		}
		k := min(zeroShotRight(d.Src, d.Tgt), p.Len())
		want, _ := metrics.CorpusBLEU(append(append([]string{}, p.Lines[d.Tgt][:k]...), p.Lines[d.Src][k:]...),
			[][]string{p.Lines[d.Tgt]}, metrics.BLEUOptions{})
		if d.BLEU != want.Score || d.Lines != p.Len() || d.Pivot == nil || !near(d.Pivot.BLEU, 100) {
			t.Errorf("%s: BLEU %.4f on %d lines, pivot %+v; want %.4f on %d, pivot 100", d.Direction, d.BLEU, d.Lines, d.Pivot, want.Score, p.Len())
		}
		if d.Ref != filepath.Join(p.Dir, "test."+iso3[d.Tgt]) || d.Hyp != d.Part+"/"+d.String()+".txt" {
			t.Errorf("%s: ref %s hyp %s", d.Direction, d.Ref, d.Hyp)
		}
		if _, err := os.Stat(filepath.Join(hyp, d.Hyp)); err != nil {
			t.Error(err)
		}
		zs += d.BLEU
	}
	want := "deu-fra:de-fr:zero-shot deu-fra:fr-de:zero-shot deu-nld:de-nl:zero-shot deu-nld:nl-de:zero-shot"
	if strings.Join(got, " ") != want {
		t.Errorf("directions\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if res.Supervised.Directions != 0 || res.ZeroShot.Directions != 4 || !near(res.ZeroShot.BLEU, zs/4) || len(res.Parts) != 2 {
		t.Errorf("averages %+v %+v, parts %+v", res.Supervised, res.ZeroShot, res.Parts)
	}
	// No supervised direction: no average, rather than a row of zeros.
	var md strings.Builder
	if err := res.WriteMarkdown(&md); err != nil || !strings.Contains(md.String(), "| supervised | 0 | – | – | – |") {
		t.Errorf("markdown (%v):\n%s", err, md.String())
	}
	// The pivot's first legs come from each pair's own source lines.
	if _, err := os.Stat(filepath.Join(hyp, "deu-nld", "pivot", "nl-en-de.txt")); err != nil {
		t.Error(err)
	}
	// --directions picks the pair that has the languages.
	or.calls = nil
	one, err := EvalSuite(context.Background(), or, s, MatrixOptions{Detector: lexDetector{}, NoPivot: true,
		Directions: []Direction{{"nl", "de"}}})
	if err != nil || len(one.Directions) != 1 || one.Directions[0].Part != "deu-nld" {
		t.Errorf("one direction: %v %+v", err, one)
	}
	if _, err := EvalSuite(context.Background(), or, s, MatrixOptions{Detector: lexDetector{}, Directions: []Direction{{"fr", "nl"}}}); err == nil ||
		!strings.Contains(err.Error(), "fr-nl") {
		t.Errorf("direction in no pair: error %v", err)
	}
}
