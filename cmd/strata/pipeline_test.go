package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/strata-nmt/strata/model"
)

// run executes one strata command line in-process and returns its stdout.
// Cobra keeps flag values between Execute calls in one process, so every
// flag is reset to its default first.
func run(t *testing.T, args ...string) string {
	t.Helper()
	resetFlags(rootCmd)
	var out, errb bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetErr(&errb)
	rootCmd.SetArgs(args)
	defer rootCmd.SetArgs(nil)
	if err := rootCmd.Execute(); err != nil {
		t.Fatalf("strata %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// The user-facing pipeline through the CLI: quickstart (generate, prepare,
// train, translate, score), then translate, score-nll, average, eval and
// the analyses on its run directory.
func TestCLIPipeline(t *testing.T) {
	dir := t.TempDir()
	out := run(t, "quickstart", "--dir", dir, "--train-time", "2s", "--sentences", "1500", "--test-sentences", "20", "--beam", "2")
	if !strings.Contains(out, "BLEU = ") || !strings.Contains(out, "strata translate --model") {
		t.Fatalf("quickstart report:\n%s", out)
	}
	runDir := filepath.Join(dir, "run")
	src := filepath.Join(dir, "corpus", "test.qaa")
	hyp := filepath.Join(dir, "hyp.txt")
	run(t, "translate", "--model", runDir, "--input", src, "--output", hyp, "--beam", "2", "--max-len-a", "1", "--max-len-b", "5")
	lines := strings.Split(strings.TrimRight(readFile(t, hyp), "\n"), "\n")
	if len(lines) != 500 {
		t.Fatalf("translate wrote %d lines for 500 inputs", len(lines))
	}
	// three shards, concatenated in order, are the whole translation
	var shards strings.Builder
	for i := 1; i <= 3; i++ {
		part := fmt.Sprintf("%s.%d", hyp, i)
		run(t, "translate", "--model", runDir, "--input", src, "--output", part, "--beam", "2", "--max-len-a", "1", "--max-len-b", "5",
			"--shard", fmt.Sprintf("%d/3", i))
		shards.WriteString(readFile(t, part))
	}
	if shards.String() != readFile(t, hyp) {
		t.Errorf("translations of --shard 1/3, 2/3, 3/3 concatenated differ from the unsharded translation")
	}
	ev := run(t, "eval", "--hyp", hyp, "--ref", filepath.Join(dir, "corpus", "test.qab"), "--metrics", "bleu,chrf")
	if !strings.Contains(ev, "BLEU") || !strings.Contains(ev, "chrF2") {
		t.Fatalf("eval output:\n%s", ev)
	}
	avg := filepath.Join(dir, "avg.bin")
	run(t, "average", "--dir", runDir, "--last", "1", "--output", avg)
	run(t, "translate", "--model", avg, "--data", filepath.Join(dir, "data"), "--input", src, "--output", hyp+".avg",
		"--greedy", "--max-len-a", "1", "--max-len-b", "5")
	// an ensemble of a model with itself has the model's distribution, so it
	// decodes exactly as the model alone
	run(t, "translate", "--model", avg, "--model", avg, "--data", filepath.Join(dir, "data"), "--input", src, "--output", hyp+".ens",
		"--greedy", "--max-len-a", "1", "--max-len-b", "5")
	if a, b := readFile(t, hyp+".avg"), readFile(t, hyp+".ens"); a != b {
		t.Errorf("an ensemble of a model with itself translated differently from the model")
	}
	// word alignments follow each translation, which stays what it was
	run(t, "translate", "--model", avg, "--data", filepath.Join(dir, "data"), "--input", src, "--output", hyp+".align",
		"--greedy", "--max-len-a", "1", "--max-len-b", "5", "--alignment")
	plain := strings.Split(readFile(t, hyp+".avg"), "\n")
	for i, l := range strings.Split(strings.TrimRight(readFile(t, hyp+".align"), "\n"), "\n") {
		text, links, ok := strings.Cut(l, " ||| ")
		if !ok || text != plain[i] || (text != "" && links == "") {
			t.Fatalf("--alignment line %d: %q (translation without it: %q)", i+1, l, plain[i])
		}
	}
	// fine-tuning starts from the trained weights: the first update runs at
	// the warm-up's initial rate, 0, so they come out unchanged
	ft := filepath.Join(dir, "ft")
	run(t, "train", "--data", filepath.Join(dir, "data"), "--max-update", "1", "--valid-split", "", "--warmup-updates", "10",
		"--threads", "1", "--save-dir", ft, "--finetune-from", runDir, "--set", "dropout=0.2")
	src0, err := model.Load(filepath.Join(runDir, "checkpoint_best.bin"))
	if err != nil {
		t.Fatal(err)
	}
	ft1, err := model.Load(filepath.Join(ft, "checkpoint_last.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if ft1.Config().Dropout != 0.2 {
		t.Errorf("--set dropout=0.2 not applied: %v", ft1.Config().Dropout)
	}
	for i, p := range ft1.Params().List() {
		if q := src0.Params().List()[i]; !slices.Equal(p.Data, q.Data) {
			t.Fatalf("fine-tuned %s differs from the model it started from", p.Name)
		}
	}
	png := filepath.Join(dir, "curves.png")
	run(t, "analyze", "curves", runDir, "--smooth", "1", "--out", png)
	attn := filepath.Join(dir, "attn.png")
	run(t, "analyze", "attention", "--model", runDir, "--source", "Va patemar te zuba.", "--target", "Shira ra !", "--out", attn)
	diffDir := filepath.Join(dir, "difficulty")
	tab := run(t, "analyze", "difficulty", "--model", runDir, "--last", "1", "--source", src,
		"--reference", filepath.Join(dir, "corpus", "test.qab"), "--buckets", "4", "--out", diffDir,
		"beam="+hyp, "avg="+hyp+".avg")
	if !strings.Contains(tab, "| Challenging | 125 |") || !strings.Contains(tab, "avg BLEU (Δ, 95% CI, p)") ||
		!strings.Contains(tab, "avg: gain in Challenging minus gain in Simple") || !strings.Contains(tab, "Test: two-sided paired bootstrap on each bucket's lines") {
		t.Errorf("analyze difficulty table:\n%s", tab)
	}
	tsv := strings.Split(strings.TrimSpace(readFile(t, filepath.Join(diffDir, "difficulty.tsv"))), "\n")
	if len(tsv) != 501 {
		t.Errorf("difficulty.tsv has %d lines, want a header and 500", len(tsv))
	}
	// the ranking read back from difficulty.tsv cuts the same buckets
	again := run(t, "analyze", "difficulty", "--scores", filepath.Join(diffDir, "difficulty.tsv"), "--source", src,
		"--reference", filepath.Join(dir, "corpus", "test.qab"), "--out", filepath.Join(dir, "difficulty-again"),
		"beam="+hyp, "avg="+hyp+".avg")
	if again != tab {
		t.Errorf("analyze difficulty --scores gives another table:\n%s\nwant\n%s", again, tab)
	}
	// the quickstart does not log gradient norms: a run directory with a
	// two-layer record stands in for one trained with --log-grad-norms
	gradRun := filepath.Join(dir, "gradrun")
	os.MkdirAll(gradRun, 0o755)
	os.WriteFile(filepath.Join(gradRun, "metrics.jsonl"), []byte(`{"type":"train","update":1,"layer_grad_norms":{"encoder.layers.0":2,"encoder.layers.1":1}}`+"\n"+
		`{"type":"train","update":2,"layer_grad_norms":{"encoder.layers.0":1.5,"encoder.layers.1":0.5}}`+"\n"), 0o644)
	if out := run(t, "analyze", "grad-norms", gradRun, "--out", filepath.Join(dir, "fig5")); !strings.Contains(out, "2 of 2 encoder layers") {
		t.Errorf("analyze grad-norms: %s", out)
	}
	for _, p := range []string{png, attn, filepath.Join(diffDir, "difficulty.png"), filepath.Join(dir, "fig5-gradrun.png")} {
		if b := readFile(t, p); !strings.HasPrefix(b, "\x89PNG") {
			t.Errorf("%s is not a PNG", p)
		}
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func resetFlags(c *cobra.Command) {
	reset := func(f *pflag.Flag) {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			sv.Replace(nil)
		} else {
			f.Value.Set(f.DefValue)
		}
		f.Changed = false
	}
	c.Flags().VisitAll(reset)
	c.PersistentFlags().VisitAll(reset)
	for _, sub := range c.Commands() {
		resetFlags(sub)
	}
}
