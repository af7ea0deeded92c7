package data

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestPrepareAndOpen(t *testing.T) {
	dir := t.TempDir()
	cfg := smallCorpus(t, dir)
	out := filepath.Join(dir, "out")
	rep, err := Prepare(cfg, out, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	de := rep.Corpora[0]
	if de.Read != 302 || de.Kept != 300 || de.Empty != 1 || de.TooLong != 1 {
		t.Fatalf("en-de report %+v", de)
	}
	if v := rep.Corpora[2]; v.Split != "valid" || v.Read != 3 || v.Kept != 3 {
		t.Fatalf("valid keeps every line, even empty ones: %+v", v)
	}
	// The cat of dev.de is unseen in train: it falls back and is reported.
	if v := rep.Corpora[2]; v.Fallbacks != 1 || len(v.TopFallbacks) != 1 || v.TopFallbacks[0].Char != `U+1F408 '🐈'` {
		t.Fatalf("fallbacks %d %+v", v.Fallbacks, v.TopFallbacks)
	}
	ds, err := Open(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Verify(); err != nil {
		t.Fatal(err)
	}
	train := ds.Splits["train"]
	if len(train.Parts) != 4 || train.Len() != 2*300+2*120 {
		t.Fatalf("train: %d parts, %d examples", len(train.Parts), train.Len())
	}
	// Part 1 is de→en: the reverse of part 0, same pairs.
	p0, p1 := train.Parts[0], train.Parts[1]
	if p1.SrcLang != "de" || p1.TgtLang != "en" || !p1.Reversed {
		t.Fatalf("part 1 %+v", p1)
	}
	s0, t0 := p0.Pair(7)
	s1, t1 := p1.Pair(7)
	if !slices.Equal(s0, t1) || !slices.Equal(t0, s1) {
		t.Fatal("reversed part does not swap the sides")
	}
	// The binarised text decodes back to the input line.
	src, err := ReadTSV(filepath.Join(dir, "en-de.tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < p0.Len(); i++ {
		s, tg := p0.Pair(i)
		line := p0.Corpus.Line[i]
		if ds.Vocab.Decode(s) != src.Src[line-1] || ds.Vocab.Decode(tg) != src.Tgt[line-1] {
			t.Fatalf("pair %d (line %d) decodes to %q | %q", i, line, ds.Vocab.Decode(s), ds.Vocab.Decode(tg))
		}
	}
	valid := ds.Splits["valid"]
	if valid.Len() != 6 || valid.Line(4) != 2 || valid.Parts[1].TgtLang != "fr" {
		t.Fatalf("valid: %d examples, line(4) = %d", valid.Len(), valid.Line(4))
	}
	if ds.Sequencer().Scheme != TagSENCTDEC {
		t.Fatal("scheme not kept")
	}
}

func TestPrepareIdempotentAndInterrupted(t *testing.T) {
	dir := t.TempDir()
	cfg := smallCorpus(t, dir)
	out := filepath.Join(dir, "out")
	if _, err := Prepare(cfg, out, PrepareOptions{}); err != nil {
		t.Fatal(err)
	}
	mpath := filepath.Join(out, ManifestFile)
	st1, _ := os.Stat(mpath)
	rep, err := Prepare(cfg, out, PrepareOptions{})
	if err != nil || !rep.UpToDate {
		t.Fatalf("rerun: up to date %v, %v", rep != nil && rep.UpToDate, err)
	}
	st2, _ := os.Stat(mpath)
	if !st1.ModTime().Equal(st2.ModTime()) {
		t.Fatal("rerun rewrote the manifest")
	}
	// A changed input is noticed.
	writeFile(t, filepath.Join(dir, "train.fr"), strings.Repeat("ouvrir\n", 120))
	if rep, err := Prepare(cfg, out, PrepareOptions{}); err != nil || rep.UpToDate {
		t.Fatalf("changed input: up to date %v, %v", rep.UpToDate, err)
	}
	// Dropping a split removes its files, and only those.
	writeFile(t, filepath.Join(out, "mine.txt"), "not strata's")
	valid := cfg.Splits["valid"]
	delete(cfg.Splits, "valid")
	if _, err := Prepare(cfg, out, PrepareOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "valid.00.en-de.bin")); !os.IsNotExist(err) {
		t.Fatalf("stale corpus kept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "mine.txt")); err != nil {
		t.Fatal("a file strata did not write was removed")
	}
	cfg.Splits["valid"] = valid
	if _, err := Prepare(cfg, out, PrepareOptions{}); err != nil {
		t.Fatal(err)
	}
	// A truncated output (as if a copy was cut short) is noticed by Open
	// and rebuilt by Prepare.
	bin := filepath.Join(out, "train.00.en-de.bin")
	raw, _ := os.ReadFile(bin)
	writeFile(t, bin, string(raw[:len(raw)/2]))
	if _, err := Open(out); err == nil {
		t.Fatal("Open accepted a truncated corpus")
	}
	if rep, err := Prepare(cfg, out, PrepareOptions{}); err != nil || rep.UpToDate {
		t.Fatalf("damaged output: up to date %v, %v", rep.UpToDate, err)
	}
	// A run that stops before the manifest leaves a directory Open refuses.
	os.Remove(mpath)
	if _, err := Open(out); err == nil || !strings.Contains(err.Error(), "no manifest.json") {
		t.Fatalf("Open without manifest: %v", err)
	}
	// A failing run (bad input) removes the old manifest first.
	if _, err := Prepare(cfg, out, PrepareOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "train.fr"), "only one line\n")
	_, err = Prepare(cfg, out, PrepareOptions{})
	wantErr(t, err, "train.en has 120 lines", "train.fr has 1")
	if _, err := os.Stat(mpath); !os.IsNotExist(err) {
		t.Fatal("failed run left the old manifest in place")
	}
	leftovers, _ := filepath.Glob(filepath.Join(out, ".*tmp*"))
	if len(leftovers) > 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

func TestPrepareVocabSizeAndReuse(t *testing.T) {
	dir := t.TempDir()
	cfg := smallCorpus(t, dir)
	cfg.BPE.Merges, cfg.BPE.VocabSize = 0, 4+3+256+60
	out := filepath.Join(dir, "out")
	rep, err := Prepare(cfg, out, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.BPE.VocabSize != cfg.BPE.VocabSize && !rep.BPE.StoppedEarly {
		t.Fatalf("vocabulary %d, want %d", rep.BPE.VocabSize, cfg.BPE.VocabSize)
	}
	cfg2 := smallCorpus(t, dir)
	cfg2.BPE = BPEConfig{Model: filepath.Join(out, ModelFile)}
	cfg2.DecoderStart = "<s>"
	rep2, err := Prepare(cfg2, filepath.Join(dir, "out2"), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep2.BPE.Learned || rep2.BPE.VocabSize != rep.BPE.VocabSize {
		t.Fatalf("reuse: %+v", rep2.BPE)
	}
	ds, err := Open(filepath.Join(dir, "out2"))
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := ds.Sequencer().DecoderPrefix("de"); p[0] != BOSID {
		t.Fatalf("decoder_start <s> not kept: prefix %v", p)
	}
}
