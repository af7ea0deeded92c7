package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadConfig: any prepare config (YAML) gives a resolved config or an
// error naming the file; never a panic. Seeds: the configs shipped in
// configs/ and a config with every option.
func FuzzLoadConfig(f *testing.F) {
	paths, _ := filepath.Glob("../configs/*.yaml")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`root: .
languages: [en, de, fr]
tags: T-ENC
tag_style: "__xx__"
tag_in_loss: true
decoder_start: "<s>"
bpe: {vocab_size: 8000, character_coverage: 0.9995, max_piece_runes: 8, min_frequency: 3}
max_len: 128
splits:
  train:
    - {pair: en-de, path: en-de.tsv.gz, directions: both, filter: false}
    - {pair: "en-{x}", src: "train.en-{x}.en", tgt: "train.en-{x}.{x}", each: [de, fr]}
  valid:
    - {pair: "{x}-en", src: "dev.{x}", tgt: dev.en, each: [de, fr], directions: backward}
`))
	f.Add([]byte("a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n"))
	path := filepath.Join(f.TempDir(), "c.yaml")
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := LoadConfig(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if len(c.Splits["train"]) == 0 {
			t.Fatal("resolved config without a train corpus")
		}
	})
}
