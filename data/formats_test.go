package data

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestReadMO reads the msgfmt output of catalog/mo's testdata as a corpus.
func TestReadMO(t *testing.T) {
	p, err := ReadMO(filepath.Join("..", "catalog", "mo", "testdata", "de-be.mo"))
	if err != nil {
		t.Fatal(err)
	}
	want := &Parallel{
		Src: []string{"%d file", "%d files", "Line one\nline two", "Open", "File", "Open", "One item selected", "%d items selected"},
		Tgt: []string{"%d Datei", "%d Dateien", "Zeile eins\nZeile zwei", "Öffnen", "Datei", "Offen", "Ein Element ausgewählt", "%d Elemente ausgewählt"},
	}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("got %q\nwant %q", p, want)
	}
}

// TestPrepareReadsMO: a config naming an .mo file (by extension or by
// format key) prepares, and a corrupt one fails naming the file.
func TestPrepareReadsMO(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join("..", "catalog", "mo", "testdata", "de-le.mo"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "de.mo"), string(raw))
	writeFile(t, filepath.Join(dir, "de.catalog"), string(raw))
	cfgText := "languages: [en, de]\nbpe: {merges: 10}\nsplits:\n  train:\n    - {pair: en-de, path: de.mo}\n    - {pair: en-de, path: de.catalog, format: mo}\n"
	writeFile(t, filepath.Join(dir, "c.yaml"), cfgText)
	cfg, err := LoadConfig(filepath.Join(dir, "c.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Prepare(cfg, filepath.Join(dir, "out"), PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Corpora[0].Read + rep.Corpora[1].Read; got != 16 {
		t.Fatalf("read %d pairs from the two catalogues, want 16", got)
	}
	writeFile(t, filepath.Join(dir, "de.mo"), string(raw[:100]))
	cfg, _ = LoadConfig(filepath.Join(dir, "c.yaml"))
	_, err = Prepare(cfg, filepath.Join(dir, "out2"), PrepareOptions{})
	wantErr(t, err, "de.mo", "truncated")

	writeFile(t, filepath.Join(dir, "c.yaml"), strings.Replace(cfgText, "format: mo", "format: xls", 1))
	_, err = LoadConfig(filepath.Join(dir, "c.yaml"))
	wantErr(t, err, `format "xls"`)
}
