package data

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// preparedDir prepares the toy corpus of smallCorpus into a directory.
func preparedDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if _, err := Prepare(smallCorpus(t, dir), out, PrepareOptions{}); err != nil {
		t.Fatal(err)
	}
	return out
}

// FuzzOpenManifest: a data directory with any manifest.json opens or fails
// with an error (the manifest names the languages, tag style, vocabulary
// size and the corpus files of each split); never a panic. Seeds: the
// manifest Prepare writes for the toy corpus, and in testdata the manifest
// of a quickstart run.
func FuzzOpenManifest(f *testing.F) {
	dir := preparedDir(f)
	raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte(`{"format":"strata-data","version":1,"languages":["en"],"splits":{"train":[{"corpus":"x.bin"}]}}`))
	path := filepath.Join(dir, ManifestFile)
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		ds, err := Open(dir)
		if err != nil {
			return
		}
		for _, s := range ds.Splits {
			for i := 0; i < s.Len(); i++ {
				s.Line(i)
			}
		}
	})
}

// FuzzParseCorpus: any bytes give a binarised corpus whose every pair can
// be read and holds ids inside the vocabulary, or an error; never a panic
// or an allocation larger than the file. Seeds: a corpus written here and,
// in testdata, the train split of a quickstart run (vocabulary 898).
func FuzzParseCorpus(f *testing.F) {
	c := newCorpus("x", "en", "de", []uint32{1, 2, 5}, [][]int32{{4, 5}, {}, {7}}, [][]int32{{6}, {8, 9, 10}, {}})
	var b bytes.Buffer
	if err := c.writeTo(&b); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes(), 11)
	f.Add(b.Bytes()[:40], 11)
	f.Fuzz(func(t *testing.T, raw []byte, vocab int) {
		if vocab < 1 {
			return // vocabulary sizes come from the code, not the file
		}
		c, err := parseCorpus("fuzz.bin", raw, vocab)
		if err != nil {
			return
		}
		for i := 0; i < c.Len(); i++ {
			src, tgt := c.Pair(i)
			for _, id := range append(slices.Clone(src), tgt...) {
				if id < 0 || int(id) >= vocab {
					t.Fatalf("pair %d: id %d outside the vocabulary of %d", i, id, vocab)
				}
			}
		}
		var out bytes.Buffer
		if err := c.writeTo(&out); err != nil || !bytes.Equal(out.Bytes(), raw) {
			t.Fatalf("rewriting a corpus that was read gives other bytes (%v)", err)
		}
	})
}

// FuzzVocab: a vocabulary over any language list (one a line) and tag
// style maps every token to text and back, and decodes any ids without
// panicking; encoding then decoding valid text gives it back.
func FuzzVocab(f *testing.F) {
	m := testVocab(f, TagAngle).Model()
	f.Add("en\nde\nfr", "<2de>", "open the file", []byte{5, 0, 200, 3, 1})
	f.Add("en\nzh-Hant\npt_BR", "__pt_BR__", "猫 ▁ <0x41>", []byte{})
	f.Add("x", "<0xFF>", "\t", []byte{255, 255, 255, 127})
	f.Fuzz(func(t *testing.T, langs, tok, text string, idBytes []byte) {
		for _, style := range []TagStyle{TagAngle, TagFairseq} {
			v, err := NewVocab(m, strings.Split(langs, "\n"), style)
			if err != nil {
				continue
			}
			if id, ok := v.TokenID(tok); ok && v.Token(id) != tok {
				t.Fatalf("Token(TokenID(%q) = %d) = %q", tok, id, v.Token(id))
			}
			ids := make([]int32, 0, len(idBytes)/2)
			for i := 0; i+1 < len(idBytes); i += 2 {
				ids = append(ids, int32(int16(uint16(idBytes[i])|uint16(idBytes[i+1])<<8)))
			}
			_ = v.Decode(ids)
			_ = v.Tokens(ids)
			if utf8.ValidString(text) {
				if got := v.Decode(v.Encode("en", text)); got != text {
					t.Fatalf("Decode(Encode(%q)) = %q", text, got)
				}
			}
		}
	})
}

// FuzzReadTSV: ReadTSV reads any file, plain or gzip, into pairs (one per
// line, split at its one TAB) or an error naming the file; never a panic.
// (The line reading itself is internal/textio's FuzzReadLines.) Seeds
// include the first pairs of a quickstart test set.
func FuzzReadTSV(f *testing.F) {
	f.Add([]byte("open the file\tdie Datei öffnen\n\t\nsave\tspeichern\r\nno newline\t"), false)
	f.Add([]byte("öffnen\tDatei 🐈\n"), true)
	f.Add([]byte("a\tb\tc\n"), true)
	f.Add([]byte("no tab\n"), false)
	f.Add([]byte("bad \xff\tbyte\n"), false)
	dir := f.TempDir()
	path := filepath.Join(dir, "in.tsv")
	f.Fuzz(func(t *testing.T, text []byte, gz bool) {
		file := text
		if gz {
			var b bytes.Buffer
			w := gzip.NewWriter(&b)
			w.Write(text)
			w.Close()
			file = b.Bytes()
		}
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		p, err := ReadTSV(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if len(p.Src) != len(p.Tgt) {
			t.Fatalf("%d sources, %d targets", len(p.Src), len(p.Tgt))
		}
		for i := range p.Src {
			if strings.ContainsAny(p.Src[i], "\t\n") || strings.ContainsAny(p.Tgt[i], "\t\n") ||
				!utf8.ValidString(p.Src[i]) || !utf8.ValidString(p.Tgt[i]) {
				t.Fatalf("pair %d: %q / %q", i+1, p.Src[i], p.Tgt[i])
			}
		}
	})
}
