package data

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadCatalogFormats(t *testing.T) {
	cases := []struct {
		spec     CorpusSpec
		src, tgt []string
	}{
		{CorpusSpec{Pair: "en-de", Format: "po", Path: "../catalog/po/testdata/msgcat.po"},
			[]string{"%s: cannot open file: %s", "_Open"},
			[]string{"%s: Datei kann nicht geöffnet werden: %s", "Ö_ffnen"}},
		{CorpusSpec{Pair: "en-de", Format: "po", Path: "../catalog/xliff/testdata/small.po", Fuzzy: true},
			[]string{"%s: cannot open file: %s", "_Open", "Click <b>Save</b> & exit", "Copied %d file", "Copied %d files"},
			[]string{"%s: Datei kann nicht geöffnet werden: %s", "Ö_ffnen", "Klicken Sie auf <b>Speichern</b> & beenden", "%d Datei kopiert", "%d Dateien kopiert"}},
		{CorpusSpec{Pair: "en-de", Format: "xliff", Path: "../catalog/xliff/testdata/po2xliff.xlf", States: []string{"translated"}},
			[]string{"Content-Type: text/plain; charset=UTF-8", "Language: de", "Plural-Forms: nplurals=2; plural=(n != 1);", "%s: cannot open file: %s", "_Open", "Copied %d file", "Copied %d files"},
			[]string{"Content-Type: text/plain; charset=UTF-8", "Language: de", "Plural-Forms: nplurals=2; plural=(n != 1);", "%s: Datei kann nicht geöffnet werden: %s", "Ö_ffnen", "%d Datei kopiert", "%d Dateien kopiert"}},
		{CorpusSpec{Pair: "en-de", Format: "xliff", Path: "../catalog/xliff/testdata/xliff20.xlf"},
			[]string{"Save the file"}, []string{"Datei speichern"}},
		{CorpusSpec{Pair: "de-en", Format: "tmx", Path: "../catalog/tmx/testdata/tmx14.tmx", Inline: "keep"},
			[]string{"Klicken Sie auf <b>Speichern</b>, um alle Änderungen zu behalten."},
			[]string{"Click <b>Save</b> to keep all changes."}},
		{CorpusSpec{Pair: "en-de", Format: "tmx", Path: "../catalog/tmx/testdata/po2tmx.tmx"},
			[]string{"%s: cannot open file: %s", "_Open", "Copied %d file"},
			[]string{"%s: Datei kann nicht geöffnet werden: %s", "Ö_ffnen", "%d Datei kopiert"}},
	}
	for _, c := range cases {
		p, err := readCorpus(&c.spec)
		if err != nil {
			t.Errorf("%s: %v", c.spec.Path, err)
			continue
		}
		if !reflect.DeepEqual(p.Src, c.src) || !reflect.DeepEqual(p.Tgt, c.tgt) {
			t.Errorf("%s %s: got\n%q\n%q", c.spec.Path, c.spec.Pair, p.Src, p.Tgt)
		}
	}
}

func TestReadCatalogErrors(t *testing.T) {
	_, err := readCorpus(&CorpusSpec{Pair: "fr-de", Format: "xliff", Path: "../catalog/xliff/testdata/xliff20.xlf"})
	if err == nil || !strings.Contains(err.Error(), "xliff20.xlf:7: source language en, but the config's pair fr-de says fr") {
		t.Errorf("wrong language: %v", err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.po")
	os.WriteFile(bad, []byte("msgid \"a\"\nmsgstr \"b\"\nmsgid \"c\"\n"), 0o644)
	_, err = readCorpus(&CorpusSpec{Pair: "en-de", Format: "po", Path: bad})
	if err == nil || !strings.Contains(err.Error(), "bad.po:3: entry of line 3 ends without msgstr") {
		t.Errorf("broken PO: %v", err)
	}
}

func TestCatalogConfigKeys(t *testing.T) {
	cases := map[string]string{
		`{pair: en-de, format: csv, path: x.csv}`:                `format "csv": want tsv, tmx, xliff, po or mo`,
		`{pair: en-de, format: po, src: a, tgt: b}`:              "format po: give the file as path",
		`{pair: en-de, format: po, path: x.po, inline: keep}`:    "inline applies to formats tmx and xliff",
		`{pair: en-de, format: tmx, path: x.tmx, inline: drop}`:  `inline "drop": want strip or keep`,
		`{pair: en-de, path: x.tsv, states: [final]}`:            "states applies to format xliff only",
		`{pair: en-de, format: xliff, path: x.xlf, fuzzy: true}`: "fuzzy applies to format po only",
	}
	dir := t.TempDir()
	for spec, want := range cases {
		p := filepath.Join(dir, "c.yaml")
		os.WriteFile(p, []byte("bpe: {merges: 10}\nsplits:\n  train:\n    - "+spec+"\n"), 0o644)
		_, err := LoadConfig(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", spec, err, want)
		}
	}
}
