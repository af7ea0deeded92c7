package analysis

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/metrics"
)

func TestAllDirections(t *testing.T) {
	ds := AllDirections([]string{"fr", "en", "de", "nl"}, "en")
	var got []string
	for _, d := range ds {
		got = append(got, d.String()+":"+d.Kind("en"))
	}
	want := "en-de:supervised en-fr:supervised en-nl:supervised de-en:supervised fr-en:supervised nl-en:supervised " +
		"de-fr:zero-shot de-nl:zero-shot fr-de:zero-shot fr-nl:zero-shot nl-de:zero-shot nl-fr:zero-shot"
	if strings.Join(got, " ") != want {
		t.Errorf("directions\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if n := len(AllDirections([]string{"de", "fr", "nl"}, "en")); n != 6 {
		t.Errorf("without the pivot: %d directions, want the 6 zero-shot ones", n)
	}
	for _, bad := range []string{"de", "de-de", "de-fr-nl", "-fr"} {
		if _, err := ParseDirection(bad); err == nil {
			t.Errorf("ParseDirection(%q) accepted", bad)
		}
	}
}

func TestReadTestSetFloresCodes(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"eng_Latn.devtest": "a\nb\n", "deu_Latn.devtest": "c\nd\n", "README": "x"} {
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	ts, err := ReadTestSet(dir, []string{"en", "de"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ts.Len() != 2 || ts.Lines["de"][1] != "d" {
		t.Errorf("read %v", ts.Lines)
	}
	os.WriteFile(filepath.Join(dir, "fra_Latn.devtest"), []byte("e\n"), 0o644)
	if _, err := ReadTestSet(dir, []string{"en", "fr"}, 0); err == nil || !strings.Contains(err.Error(), "fra_Latn.devtest") {
		t.Errorf("unequal line counts: error %v, want one naming the file", err)
	}
	os.WriteFile(filepath.Join(dir, "xho_Latn.devtest"), []byte("e\n"), 0o644)
	if _, err := ReadTestSet(dir, []string{"en"}, 0); err == nil || !strings.Contains(err.Error(), "xho_Latn") {
		t.Errorf("unmapped FLORES code: error %v", err)
	}
}

// oracle translates supervised directions perfectly (it looks the line up
// in the n-way set); in zero-shot directions it translates the first
// k lines and copies the source of the others (off-target), with k
// different for each direction. It counts its calls.
type oracle struct {
	ts    *TestSet
	calls []string
}

func (o *oracle) Translate(_ context.Context, src, tgt string, lines []string) ([]string, error) {
	o.calls = append(o.calls, src+"-"+tgt)
	out := make([]string, len(lines))
	for i, l := range lines {
		if src != "en" && tgt != "en" && i >= zeroShotRight(src, tgt) {
			out[i] = l
			continue
		}
		out[i] = "?"
		for k, s := range o.ts.Lines[src] {
			if s == l {
				out[i] = o.ts.Lines[tgt][k]
				break
			}
		}
	}
	return out, nil
}

// zeroShotRight is how many leading lines the oracle gets right in a
// zero-shot direction.
func zeroShotRight(src, tgt string) int { return 3*len(src+tgt) + int(src[0]+tgt[0])%7 }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestEvalMatrixScoresAveragesAndPivot(t *testing.T) {
	dir := t.TempDir()
	writeNWay(t, dir, "test", sentences(30, 9))
	ts, err := ReadTestSet(dir, testLangs, 0)
	if err != nil {
		t.Fatal(err)
	}
	or := &oracle{ts: ts}
	hypDir := filepath.Join(dir, "hyp")
	res, err := EvalMatrix(context.Background(), or, ts, MatrixOptions{Pivot: "en", Detector: lexDetector{}, HypDir: hypDir})
	if err != nil {
		t.Fatal(err)
	}
	// 12 directions, then one second leg per zero-shot direction; the first
	// legs are the X-en outputs already at hand.
	if len(or.calls) != 12+6 {
		t.Errorf("%d translations (%v), want 18", len(or.calls), or.calls)
	}
	var zsSum, offSum float64
	for _, d := range res.Directions {
		if d.Kind == Supervised {
			if !near(d.BLEU, 100) || d.OffTarget != 0 || d.Pivot != nil {
				t.Errorf("%s: BLEU %.2f off-target %.2f pivot %v; want 100, 0, none", d.Direction, d.BLEU, d.OffTarget, d.Pivot)
			}
			continue
		}
		k := zeroShotRight(d.Src, d.Tgt)
		hyp := append(append([]string{}, ts.Lines[d.Tgt][:k]...), ts.Lines[d.Src][k:]...)
		want, _ := metrics.CorpusBLEU(hyp, [][]string{ts.Lines[d.Tgt]}, metrics.BLEUOptions{})
		off := float64(30-k) / 30
		if d.BLEU != want.Score || !near(d.OffTarget, off) || d.Identified[d.Src] != 30-k {
			t.Errorf("%s: BLEU %.4f off-target %.3f identified %v; want %.4f, %.3f, %d %s", d.Direction, d.BLEU, d.OffTarget,
				d.Identified, want.Score, off, 30-k, d.Src)
		}
		if d.Pivot == nil || !near(d.Pivot.BLEU, 100) || d.Pivot.OffTarget != 0 {
			t.Errorf("%s: pivot %+v, want BLEU 100 and no off-target output", d.Direction, d.Pivot)
		}
		zsSum += want.Score
		offSum += off
	}
	if res.Supervised.Directions != 6 || !near(res.Supervised.BLEU, 100) || res.ZeroShot.Directions != 6 ||
		!near(res.ZeroShot.BLEU, zsSum/6) || !near(res.ZeroShot.OffTarget, offSum/6) || !near(res.PivotZeroShot.BLEU, 100) {
		t.Errorf("averages: supervised %+v zero-shot %+v pivot %+v", res.Supervised, res.ZeroShot, res.PivotZeroShot)
	}
	// Hypotheses are kept and reused.
	if _, err := os.Stat(filepath.Join(hypDir, "pivot", "de-en-fr.txt")); err != nil {
		t.Error(err)
	}
	or.calls = nil
	again, err := EvalMatrix(context.Background(), or, ts, MatrixOptions{Pivot: "en", Detector: lexDetector{}, HypDir: hypDir})
	if err != nil {
		t.Fatal(err)
	}
	if len(or.calls) != 0 || !reflect.DeepEqual(again.ZeroShot, res.ZeroShot) {
		t.Errorf("rerun over kept hypotheses translated %v and gave %+v (first run %+v)", or.calls, again.ZeroShot, res.ZeroShot)
	}
}

// tracer marks every translation so that chains can be read off.
type tracer struct{}

func (tracer) Translate(_ context.Context, src, tgt string, lines []string) ([]string, error) {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = fmt.Sprintf("[%s>%s]%s", src, tgt, l)
	}
	return out, nil
}

func TestPivotComposesTwoTranslations(t *testing.T) {
	dir := t.TempDir()
	writeNWay(t, dir, "test", sentences(3, 4))
	ts, _ := ReadTestSet(dir, testLangs, 0)
	hyp := filepath.Join(dir, "hyp")
	_, err := EvalMatrix(context.Background(), tracer{}, ts, MatrixOptions{Detector: lexDetector{}, HypDir: hyp,
		Directions: []Direction{{"de", "fr"}}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(hyp, "pivot", "de-en-fr.txt"))
	want := "[en>fr][de>en]" + ts.Lines["de"][0]
	if first, _, _ := strings.Cut(string(got), "\n"); first != want {
		t.Errorf("pivot output %q, want %q", first, want)
	}
	// The first leg was not an evaluated direction, so it was translated
	// and kept too.
	if _, err := os.Stat(filepath.Join(hyp, "de-en.txt")); err != nil {
		t.Error(err)
	}
}

// bytesOut answers every line with invalid UTF-8 and a newline, which a
// model can produce through byte pieces.
type bytesOut struct{ calls int }

func (b *bytesOut) Translate(_ context.Context, _, _ string, lines []string) ([]string, error) {
	b.calls++
	out := make([]string, len(lines))
	for i := range out {
		out[i] = "a\xff\nb"
	}
	return out, nil
}

func TestHypothesesAreKeptAsValidLines(t *testing.T) {
	dir := t.TempDir()
	writeNWay(t, dir, "test", sentences(4, 4))
	ts, _ := ReadTestSet(dir, testLangs, 0)
	opt := MatrixOptions{Detector: lexDetector{}, HypDir: filepath.Join(dir, "hyp"), Directions: []Direction{{"en", "de"}}}
	b := &bytesOut{}
	for range 2 {
		if _, err := EvalMatrix(context.Background(), b, ts, opt); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "hyp", "en-de.txt"))
	if b.calls != 1 || string(got) != strings.Repeat("a\uFFFD b\n", 4) {
		t.Errorf("%d calls, file %q; want one call and 4 lines of valid UTF-8", b.calls, got)
	}
}

func TestMatrixOutputs(t *testing.T) {
	dir := t.TempDir()
	writeNWay(t, dir, "test", sentences(10, 5))
	ts, _ := ReadTestSet(dir, testLangs, 0)
	res, err := EvalMatrix(context.Background(), &oracle{ts: ts}, ts, MatrixOptions{Detector: lexDetector{}})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if err := WriteMatrixOutputs(out, res); err != nil {
		t.Fatal(err)
	}
	back, err := ReadMatrix(filepath.Join(out, MatrixJSON))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.ZeroShot, res.ZeroShot) || len(back.Directions) != 12 {
		t.Errorf("JSON round trip: %+v vs %+v", back.ZeroShot, res.ZeroShot)
	}
	md, _ := os.ReadFile(filepath.Join(out, MatrixMarkdown))
	for _, want := range []string{"| de-fr | zero-shot |", "| en-de | supervised | 100.00 |", "| supervised | 6 | 100.00 |", "zero-shot via en (pivot)", "tok:13a"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	png, _ := os.ReadFile(filepath.Join(out, MatrixHeatmap))
	if !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) < 2000 {
		t.Errorf("heat map: %d bytes, not a PNG with content", len(png))
	}
	var sb strings.Builder
	noPivot := *res
	noPivot.PivotZeroShot = nil
	rows := []SummaryRow{{Name: "PostNorm", Result: res}, {Name: "NoPivot", Result: &noPivot}, {Name: "PreNorm", Result: res}}
	if err := SummaryMarkdown(&sb, rows); err != nil {
		t.Fatal(err)
	}
	// one pivot row per system that has pivot results, none for the other
	for _, want := range []string{"| pivot through en (PostNorm) | 100.00 (0.00%)", "| pivot through en (PreNorm) | 100.00 (0.00%)"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, sb.String())
		}
	}
	if strings.Contains(sb.String(), "(NoPivot) |") {
		t.Errorf("summary has a pivot row for a system without pivot results:\n%s", sb.String())
	}
}
