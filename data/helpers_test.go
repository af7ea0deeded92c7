package data

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/subword"
)

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeGzip(t testing.TB, path, text string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	zw.Close()
	writeFile(t, path, b.String())
}

// testVocab learns a tiny model over a few words, with languages en de fr.
func testVocab(t testing.TB, style TagStyle) *Vocab {
	t.Helper()
	wc := subword.NewWordCounts()
	for range 5 {
		wc.AddLines([]string{"hello world", "hallo Welt", "bonjour monde"}, 1)
	}
	m, _, err := subword.Learn(wc, subword.Options{NumMerges: 40})
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVocab(m, []string{"en", "de", "fr"}, style)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// smallCorpus writes a multilingual toy corpus in dir and returns a config
// over it: en-de as gzip TSV, en-fr as two aligned files, dev n-way.
func smallCorpus(t testing.TB, dir string) *Config {
	t.Helper()
	words := []string{"open", "file", "save", "close", "the", "window", "new", "folder"}
	de := []string{"öffnen", "Datei", "speichern", "schließen", "das", "Fenster", "neu", "Ordner"}
	fr := []string{"ouvrir", "fichier", "enregistrer", "fermer", "la", "fenêtre", "nouveau", "dossier"}
	var tsv, en, frl strings.Builder
	for i := 0; i < 300; i++ {
		n := 1 + i%5
		var e, d, f []string
		for k := 0; k < n; k++ {
			w := (i*7 + k*3) % len(words)
			e, d, f = append(e, words[w]), append(d, de[w]), append(f, fr[w])
		}
		fmt.Fprintf(&tsv, "%s\t%s\n", strings.Join(e, " "), strings.Join(d, " "))
		if i < 120 {
			fmt.Fprintln(&en, strings.Join(e, " "))
			fmt.Fprintln(&frl, strings.Join(f, " "))
		}
	}
	tsv.WriteString("\tleer\n")                                  // empty source: dropped
	tsv.WriteString(strings.Repeat("open ", 80) + "\tzu lang\n") // too long: dropped
	writeGzip(t, filepath.Join(dir, "en-de.tsv.gz"), tsv.String())
	writeFile(t, filepath.Join(dir, "train.en"), en.String())
	writeFile(t, filepath.Join(dir, "train.fr"), frl.String())
	for _, l := range []string{"en", "de", "fr"} {
		writeFile(t, filepath.Join(dir, "dev."+l), map[string]string{
			"en": "open the file\n\nsave the new folder\n",
			"de": "öffnen das Datei 🐈\n\nspeichern das neu Ordner\n",
			"fr": "ouvrir la fichier\n\nenregistrer la nouveau dossier\n",
		}[l])
	}
	cfgText := `
languages: [en, de, fr]
tags: S-ENC-T-DEC
bpe: {merges: 60}
max_len: 50
splits:
  train:
    - {pair: en-de, path: en-de.tsv.gz, directions: both}
    - {pair: en-fr, src: train.en, tgt: train.fr, directions: both}
  valid:
    - {pair: "en-{x}", src: dev.en, tgt: "dev.{x}", each: [de, fr]}
`
	writeFile(t, filepath.Join(dir, "c.yaml"), cfgText)
	cfg, err := LoadConfig(filepath.Join(dir, "c.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func mkdir(p string) error { return os.MkdirAll(p, 0o755) }

func fmtSscan(s string, v *int) (int, error) { return fmt.Sscan(s, v) }
