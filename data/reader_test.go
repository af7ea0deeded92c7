package data

import (
	"path/filepath"
	"strings"
	"testing"
)

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not mention %q", err, p)
		}
	}
}

func TestReaders(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ok.tsv.gz")
	writeGzip(t, p, "a b\tc d\r\n\tempty source\nlast\tline")
	c, err := ReadTSV(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Src) != 3 || c.Src[0] != "a b" || c.Tgt[0] != "c d" || c.Src[1] != "" || c.Tgt[2] != "line" {
		t.Fatalf("read %q %q", c.Src, c.Tgt)
	}
	// Gzip is recognised by content, not name.
	writeGzip(t, filepath.Join(dir, "plain-name.txt"), "x\ty\n")
	if c, err := ReadTSV(filepath.Join(dir, "plain-name.txt")); err != nil || c.Tgt[0] != "y" {
		t.Fatalf("gzip without .gz: %v", err)
	}

	bad := filepath.Join(dir, "notab.tsv")
	writeFile(t, bad, "a\tb\nno tab here\n")
	_, err = ReadTSV(bad)
	wantErr(t, err, "notab.tsv:2", "no TAB")

	writeFile(t, bad, "a\tb\tc\n")
	_, err = ReadTSV(bad)
	wantErr(t, err, "notab.tsv:1", "2 TABs")

	writeFile(t, bad, "ok\tfine\nbad \xff byte\tx\n")
	_, err = ReadTSV(bad)
	wantErr(t, err, "notab.tsv:2", "invalid UTF-8", "byte 5")

	writeFile(t, filepath.Join(dir, "a.en"), "1\n2\n3\n")
	writeFile(t, filepath.Join(dir, "a.de"), "1\n2\n")
	_, err = ReadAligned(filepath.Join(dir, "a.en"), filepath.Join(dir, "a.de"))
	wantErr(t, err, "a.en has 3 lines", "a.de has 2")

	_, err = ReadAligned(filepath.Join(dir, "missing"), filepath.Join(dir, "missing"))
	wantErr(t, err, "missing")
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	base := "bpe: {merges: 10}\nsplits:\n  train:\n"
	cases := []struct{ yaml, want string }{
		{base + "    - {pair: en-xx, path: a.tsv}\n", `unknown language code "xx"`},
		{base + "    - {pair: en, path: a.tsv}\n", "want src-tgt"},
		{base + "    - {pair: en-de, path: a.tsv, src: a.en, tgt: a.de}\n", "either path"},
		{base + "    - {pair: en-de, path: a.tsv, directions: sideways}\n", "directions"},
		{base + "    - {pair: en-de, path: a.tsv}\n    - {pair: en-de, path: a.tsv}\n", "listed twice"},
		{"languages: [en]\n" + base + "    - {pair: en-de, path: a.tsv}\n", `"de" is not in languages`},
		{"tags: X\n" + base + "    - {pair: en-de, path: a.tsv}\n", "tag scheme"},
		{"decoder_start: <bos>\n" + base + "    - {pair: en-de, path: a.tsv}\n", "decoder_start"},
		{"bpe: {merges: 10, vocab_size: 100}\nsplits: {train: [{pair: en-de, path: a.tsv}]}\n", "not both"},
		{"bpe: {merges: 10}\nsplits: {valid: [{pair: en-de, path: a.tsv}]}\n", "no train"},
		{"bpe: {merges: 10}\nmystery: 1\nsplits: {train: [{pair: en-de, path: a.tsv}]}\n", "mystery"},
	}
	for i, c := range cases {
		p := filepath.Join(dir, "c.yaml")
		writeFile(t, p, c.yaml)
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: error %v, want %q", i, err, c.want)
		}
	}
}

func TestConfigExpand(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "c.yaml")
	writeFile(t, filepath.Join(dir, "x"), "")
	if err := mkdir(filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, `root: ../data
tags: T-ENC
bpe: {vocab_size: 1000}
splits:
  train: [{pair: "en-{x}", path: "en-{x}.tsv", directions: both, each: [de, fr]}]
  valid: [{pair: en-de, src: dev.en, tgt: dev.de}]
`)
	c, err := LoadConfig(p)
	if err != nil {
		t.Fatal(err)
	}
	tr := c.Splits["train"]
	if len(tr) != 2 || tr[1].Pair != "en-fr" || tr[1].Path != filepath.Join(dir, "data", "en-fr.tsv") || !*tr[0].Filter {
		t.Fatalf("train %+v", tr)
	}
	if v := c.Splits["valid"][0]; *v.Filter || v.Directions != "forward" || v.Src != filepath.Join(dir, "data", "dev.en") {
		t.Fatalf("valid %+v", v)
	}
	if strings.Join(c.Languages, " ") != "de en fr" {
		t.Fatalf("languages %v", c.Languages)
	}
	if err := c.Resolve(); err != nil || len(c.Splits["train"]) != 2 {
		t.Fatalf("second Resolve: %v", err)
	}
}
