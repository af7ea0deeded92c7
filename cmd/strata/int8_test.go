package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A quickstart model quantized with strata quantize (about 4x smaller on
// disk than its weights in float32) translates the quickstart test set
// within a small BLEU and chrF margin of float32 decoding, also with a
// shortlist learned from its training data.
func TestQuantizedQuickstart(t *testing.T) {
	dir := t.TempDir()
	run(t, "quickstart", "--dir", dir, "--train-time", "8s", "--sentences", "2000", "--test-sentences", "10", "--beam", "1")
	runDir, q := filepath.Join(dir, "run"), filepath.Join(dir, "q")
	run(t, "quantize", "--model", runDir, "--output", q)
	sl := filepath.Join(dir, "shortlist.txt")
	run(t, "shortlist", "--data", filepath.Join(dir, "data"), "--output", sl, "--k", "20", "--frequent", "50")
	st, err := os.Stat(filepath.Join(q, "model.bin"))
	if err != nil {
		t.Fatal(err)
	}
	src, ref := filepath.Join(dir, "corpus", "test.qaa"), filepath.Join(dir, "corpus", "test.qab")
	scores := map[string][2]float64{}
	for name, args := range map[string][]string{
		"float32":         {"--model", runDir},
		"int8":            {"--model", q, "--compute-type", "int8"},
		"int8+shortlist":  {"--model", q, "--compute-type", "int8", "--shortlist", sl},
		"float32 of int8": {"--model", q, "--compute-type", "float32"},
		"int8 by default": {"--model", q},
	} {
		hyp := filepath.Join(dir, "hyp."+strings.ReplaceAll(name, " ", "_"))
		run(t, append(append([]string{"translate"}, args...), "--input", src, "--output", hyp, "--beam", "2")...)
		var bleu, chrf float64
		for _, l := range strings.Split(strings.TrimSpace(run(t, "eval", "--hyp", hyp, "--ref", ref, "--json", "--metrics", "bleu,chrf")), "\n") {
			var m struct {
				Name  string
				Score float64
			}
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("eval --json line %q: %v", l, err)
			}
			if m.Name == "BLEU" {
				bleu = m.Score
			} else {
				chrf = m.Score
			}
		}
		scores[name] = [2]float64{bleu, chrf}
	}
	// the int8 file decodes in int8 unless told otherwise
	if a, b := readFile(t, filepath.Join(dir, "hyp.int8")), readFile(t, filepath.Join(dir, "hyp.int8_by_default")); a != b {
		t.Errorf("translating the int8 file without --compute-type gave other output than --compute-type int8")
	}
	f := scores["float32"]
	t.Logf("BLEU/chrF: %v; int8 model file %d bytes", scores, st.Size())
	for name, s := range scores {
		if math.Abs(s[0]-f[0]) > 1.5 || math.Abs(s[1]-f[1]) > 2 {
			t.Errorf("%s: BLEU %.2f chrF %.2f, float32 %.2f / %.2f", name, s[0], s[1], f[0], f[1])
		}
	}
}

// llrTestSet is a test set of the quickstart's two languages for analyze
// llr (its corpus directory also holds the training files).
func llrTestSet(t *testing.T, qs, dir string) string {
	t.Helper()
	set := filepath.Join(dir, "set")
	if err := os.MkdirAll(set, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"qaa", "qab"} {
		if err := os.WriteFile(filepath.Join(set, "test."+l), []byte(readFile(t, filepath.Join(qs, "corpus", "test."+l))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return set
}

// analyze llr decodes an int8 model file in int8 unless told otherwise, as
// translate does (its --compute-type help says so): the same probes as with
// --compute-type int8, and the same notice on standard error.
func TestLLRDecodesAnInt8FileInInt8(t *testing.T) {
	qs := quickstartDir(t)
	dir := t.TempDir()
	q := filepath.Join(dir, "q")
	run(t, "quantize", "--model", filepath.Join(qs, "run"), "--output", q)
	set := llrTestSet(t, qs, dir)
	llr := func(name string, args ...string) (string, string) {
		out := filepath.Join(dir, name)
		_, stderr, err := runErr(append([]string{"analyze", "llr", "--model", q, "--dev", set, "--test", set,
			"--pivot", "qaa", "--threads", "1", "--epochs", "1", "--output", out}, args...)...)
		if err != nil {
			t.Fatalf("analyze llr %v: %v\n%s", args, err, stderr)
		}
		return readFile(t, filepath.Join(out, "llr.json")), stderr
	}
	def, stderr := llr("default")
	i8, i8Err := llr("int8", "--compute-type", "int8")
	_, f32Err := llr("float32", "--compute-type", "float32")
	const notice = "decoding in int8, the model file's type"
	if !strings.Contains(stderr, notice) || strings.Contains(i8Err, notice) || strings.Contains(f32Err, notice) {
		t.Errorf("the notice %q should be printed without --compute-type only; stderr:\n%s", notice, stderr)
	}
	if def != i8 {
		t.Errorf("analyze llr of the int8 file without --compute-type differs from --compute-type int8")
	}
}

// A shortlist learned on another data directory (same vocabulary size,
// other token ids) is refused by translate and by analyze llr alike.
func TestShortlistOfAnotherDataDirectoryRefused(t *testing.T) {
	qs := quickstartDir(t)
	dir := t.TempDir()
	sl, forged := filepath.Join(dir, "shortlist.txt"), filepath.Join(dir, "forged.txt")
	run(t, "shortlist", "--data", filepath.Join(qs, "data"), "--output", sl, "--k", "5", "--frequent", "10")
	text := readFile(t, sl)
	head, rest, _ := strings.Cut(text, "\n")
	var h map[string]any
	if err := json.Unmarshal([]byte(head), &h); err != nil || h["data_key"] == nil {
		t.Fatalf("shortlist header %q: %v (no data_key)", head, err)
	}
	h["data_key"] = "0000000000000000another"
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(forged, []byte(string(b)+"\n"+rest), 0o644); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(qs, "corpus", "test.qaa")
	const want = "learned on another data directory"
	if _, _, err := runErr("translate", "--model", filepath.Join(qs, "run"), "--shortlist", forged, "--input", src,
		"--output", filepath.Join(dir, "hyp")); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("translate with another data directory's shortlist: %v", err)
	}
	set := llrTestSet(t, qs, dir)
	_, _, err = runErr("analyze", "llr", "--model", filepath.Join(qs, "run"), "--dev", set, "--test", set, "--pivot", "qaa",
		"--threads", "1", "--epochs", "1", "--output", filepath.Join(dir, "llr"), "--shortlist", forged)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("analyze llr with another data directory's shortlist: %v", err)
	}
	run(t, "translate", "--model", filepath.Join(qs, "run"), "--shortlist", sl, "--input", src, "--output", filepath.Join(dir, "hyp"))
}
