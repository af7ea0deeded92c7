package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// evalFiles writes sacreBLEU's README example (a hypothesis and two
// references) into a temporary directory; write adds more files there.
func evalFiles(t *testing.T) (write func(name, text string) string, hyp, r1, r2 string) {
	dir := t.TempDir()
	write = func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	hyp = write("hyp", "The dog bit the man.\nIt wasn't surprising.\nThe man had just bitten him.\n")
	r1 = write("r1", "The dog bit the man.\nIt was not unexpected.\nThe man bit him first.\n")
	r2 = write("r2", "The dog had bit the man.\nNo one was surprised.\nThe man had bitten the dog.\n")
	return write, hyp, r1, r2
}

func TestEvalCommand(t *testing.T) {
	write, hyp, r1, r2 := evalFiles(t)
	short := write("short", "one line\n")

	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetArgs([]string{"eval", "--hyp", hyp, "--ref", r1, "--ref", r2, "--metrics", "bleu,chrf"})
	if err := rootCmd.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"48.53  82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)",
		"nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:",
		"chrF2", "nrefs:2|case:mixed|eff:yes|nc:6|nw:0|space:no|version:",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	rootCmd.SetArgs([]string{"eval", "--hyp", hyp, "--ref", short, "--metrics", "bleu"})
	err := rootCmd.Execute()
	if err == nil || !strings.Contains(err.Error(), hyp+" has 3 lines") || !strings.Contains(err.Error(), short+" has 1") {
		t.Errorf("mismatch error: %v", err)
	}
}

// TER through the CLI, on the files above. SacreBLEU's TER counts 0, 3 and
// 3 edits on the three lines (the best of the two references each time)
// over average reference lengths 5.5, 4 and 5.5: 6/15 = 40%.
func TestEvalTER(t *testing.T) {
	t.Cleanup(func() { resetFlags(rootCmd); rootCmd.SetArgs(nil) })
	write, hyp, r1, r2 := evalFiles(t)
	base := write("base", "The dog bit a man.\nIt was surprising.\nThe man bit him.\n")
	args := []string{"eval", "--hyp", hyp, "--ref", r1, "--ref", r2, "--metrics", "ter"}

	out := run(t, args...)
	for _, want := range []string{"TER     40.00", "TER     nrefs:2|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Normalisation splits the final periods off: 6 edits over 18 words.
	out = run(t, append(args, "--ter-normalized", "--ter-case-sensitive")...)
	for _, want := range []string{"TER     33.33", "nrefs:2|case:mixed|tok:tercom|norm:yes|punct:yes|asian:no|"} {
		if !strings.Contains(out, want) {
			t.Errorf("normalized output lacks %q:\n%s", want, out)
		}
	}

	var obj map[string]any
	if err := json.Unmarshal([]byte(run(t, append(args, "--json")...)), &obj); err != nil {
		t.Fatal(err)
	}
	if obj["name"] != "TER" || obj["score"] != 40.0 || obj["num_edits"] != 6.0 || obj["ref_length"] != 15.0 {
		t.Errorf("JSON %v", obj)
	}

	// --confidence: sacreBLEU's "(μ = … ± …)" and bs/seed in the signature
	out = run(t, append(args, "--confidence", "--confidence-n", "200")...)
	for _, want := range []string{"TER     40.00  (μ = ", "nrefs:2|bs:200|seed:12345|case:lc|tok:tercom|"} {
		if !strings.Contains(out, want) {
			t.Errorf("--confidence output lacks %q:\n%s", want, out)
		}
	}
	if err := json.Unmarshal([]byte(run(t, append(args, "--confidence", "--json")...)), &obj); err != nil {
		t.Fatal(err)
	}
	if obj["mean"] == nil || obj["ci"] == nil || obj["score"] != 40.0 {
		t.Errorf("--confidence JSON %v", obj)
	}

	// The baseline scores 33.33 against the system's 40: the system is
	// worse, which the reader must know TER's direction to see.
	out = run(t, append(args, "--paired-bs", "--baseline", base, "--paired-bs-n", "200")...)
	for _, want := range []string{"33.33 (", "40.00 (", "system − baseline (95% CI)", "+6.67 (", "nrefs:2|bs:200|seed:12345|case:lc|tok:tercom|", "TER is an error rate: lower is better",
		"Test: two-sided paired bootstrap, 200 resamples, seed 12345"} {
		if !strings.Contains(out, want) {
			t.Errorf("paired output lacks %q:\n%s", want, out)
		}
	}
	out = run(t, append(args, "--paired-bs", "--baseline", base, "--paired-bs-n", "200", "--p-value", "sacrebleu")...)
	if !strings.Contains(out, "Test: paired bootstrap with sacreBLEU's paired_bs p-value, 200 resamples") {
		t.Errorf("--p-value sacrebleu output:\n%s", out)
	}
	if err := json.Unmarshal([]byte(run(t, append(args, "--paired-bs", "--baseline", base, "--paired-bs-n", "200", "--json")...)), &obj); err != nil {
		t.Fatal(err)
	}
	if obj["higher_is_better"] != false || obj["p_value"] == nil || obj["p_value_method"] != "two-sided" || obj["difference"] == nil {
		t.Errorf("paired JSON %v", obj)
	}
	// the estimates use the keys of a --confidence record
	if d, _ := obj["difference"].(map[string]any); d["lower"] == nil || d["upper"] == nil || d["score"] == nil || d["Lower"] != nil {
		t.Errorf("paired JSON difference %v: want the keys score, mean, ci, lower, upper", obj["difference"])
	}

	resetFlags(rootCmd)
	rootCmd.SetErr(io.Discard)
	rootCmd.SetArgs([]string{"eval", "--hyp", hyp, "--ref", r1, "--metrics", "bleu", "--ter-no-punct"})
	if err := rootCmd.Execute(); err == nil || !strings.Contains(err.Error(), "--ter-no-punct configures TER") {
		t.Errorf("TER flag without TER: %v", err)
	}
}

// --placeholders adds the share of hypotheses that keep their source's
// placeholders, in the table and in --json.
func TestEvalPlaceholders(t *testing.T) {
	write, _, _, _ := evalFiles(t)
	src := write("src", "%s is %s.\nOnly in %s: %s\nCopy <b>%d</b> files\n")
	hyp := write("ph-hyp", "%s ist %s.\nNur in %s\n\n")
	ref := write("ph-ref", "%s ist %s.\nNur in %s: %s\n<b>%d</b> Dateien kopieren\n")
	ev, _, _ := rootCmd.Find([]string{"eval"})
	defer ev.Flags().Set("placeholders", "")
	defer ev.Flags().Set("json", "false")
	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetArgs([]string{"eval", "--hyp", hyp, "--ref", ref, "--metrics", "bleu", "--placeholders", src, "--json"})
	if err := rootCmd.Execute(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	var r struct {
		Name  string
		Score float64
		Kept  int
		Lines int
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil || r.Name != "placeholders" || r.Kept != 1 || r.Lines != 3 || r.Score < 33.3 || r.Score > 33.4 {
		t.Fatalf("placeholders result %+v (%v):\n%s", r, err, out.String())
	}
	short := write("ph-short", "%s\n")
	rootCmd.SetArgs([]string{"eval", "--hyp", hyp, "--ref", ref, "--metrics", "bleu", "--placeholders", short})
	if err := rootCmd.Execute(); err == nil || !strings.Contains(err.Error(), short+" has 1 lines") {
		t.Errorf("a source of another length: %v", err)
	}
}

// Numeric flags out of range are errors naming the flag: the metrics
// package reads 0 as its default, which would score with other settings
// than the ones asked for, and a negative --width printed %!(BADPREC).
func TestEvalRefusesOutOfRangeNumbers(t *testing.T) {
	_, hyp, r1, _ := evalFiles(t)
	for _, args := range [][]string{
		{"--width", "-1"},
		{"--max-ngram-order", "0"},
		{"--chrf-char-order", "0"},
		{"--chrf-beta", "0"},
		{"--confidence", "--confidence-n", "0"},
		{"--paired-bs", "--baseline", r1, "--paired-bs-n", "-5"},
		{"--smooth", "floor", "--smooth-value", "-1"},
	} {
		_, _, err := runErr(append([]string{"eval", "--hyp", hyp, "--ref", r1, "-m", "bleu,chrf"}, args...)...)
		if err == nil || !strings.Contains(err.Error(), args[len(args)-2]+" "+args[len(args)-1]) {
			t.Errorf("eval %s: error %v, want one naming the flag and its value", strings.Join(args, " "), err)
		}
	}
}

// References given positionally, as sacreBLEU takes them, get an error
// that says to use --ref.
func TestEvalPositionalReferenceSaysRef(t *testing.T) {
	_, hyp, r1, _ := evalFiles(t)
	_, _, err := runErr("eval", r1, "-i", hyp)
	if err == nil || !strings.Contains(err.Error(), "--ref "+r1) {
		t.Fatalf("error %v, want one saying --ref %s", err, r1)
	}
}

// With --ref given, a positional file is the hypothesis: the error says
// -i, not --ref (the reference is already there).
func TestEvalPositionalHypothesisSaysHyp(t *testing.T) {
	_, hyp, r1, _ := evalFiles(t)
	_, _, err := runErr("eval", "--ref", r1, hyp)
	if err == nil || !strings.Contains(err.Error(), "-i "+hyp) || strings.Contains(err.Error(), "--ref "+hyp) {
		t.Fatalf("error %v, want one saying -i %s", err, hyp)
	}
}
