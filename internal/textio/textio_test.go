package textio

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadLines(t *testing.T) {
	got, err := SplitLines("x", "a \r\n\nb")
	if err != nil || !slices.Equal(got, []string{"a ", "", "b"}) {
		t.Errorf("%q %v", got, err)
	}
	if got, _ = SplitLines("x", "a\n"); len(got) != 1 {
		t.Errorf("%q", got)
	}
	if _, err = SplitLines("hyp.txt", "ok\nbad\xff\n"); err == nil || !strings.Contains(err.Error(), "hyp.txt:2:") {
		t.Errorf("err %v", err)
	}
}

// gzip is read transparently, whatever the file is called.
func TestGzip(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("eins\nzwei\n"))
	zw.Close()
	for _, name := range []string{"a.gz", "no-suffix"} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, buf.Bytes(), 0o644)
		got, err := ReadLines(p)
		if err != nil || !slices.Equal(got, []string{"eins", "zwei"}) {
			t.Errorf("%s: %q %v", name, got, err)
		}
	}
	r, err := OpenFrom("-", bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	lr := NewLineReader(r, "stdin")
	if l, _ := lr.Next(); l != "eins" {
		t.Errorf("gzip on standard input: first line %q", l)
	}
}

// An absent file is read from its gzipped copy (FILE.gz); a present plain
// file wins over it; with neither the error names the plain file.
func TestGzippedInPlaceOfPlain(t *testing.T) {
	dir := t.TempDir()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte("archived\n"))
	zw.Close()
	plain := filepath.Join(dir, "en-de.txt")
	os.WriteFile(plain+GzSuffix, buf.Bytes(), 0o644)
	if got, err := ReadLines(plain); err != nil || !slices.Equal(got, []string{"archived"}) {
		t.Errorf("only the .gz: %q %v", got, err)
	}
	if !Exists(plain) || Resolve(plain) != plain+GzSuffix {
		t.Errorf("Exists %v, Resolve %s", Exists(plain), Resolve(plain))
	}
	os.WriteFile(plain, []byte("plain\n"), 0o644)
	if b, err := ReadFile(plain); err != nil || string(b) != "plain\n" {
		t.Errorf("both: read %q %v, want the plain file", b, err)
	}
	missing := filepath.Join(dir, "missing.txt")
	if _, err := ReadLines(missing); err == nil || !strings.Contains(err.Error(), missing) || strings.Contains(err.Error(), GzSuffix) {
		t.Errorf("neither: error %v", err)
	}
	if Exists(missing) {
		t.Error("Exists of a missing file")
	}
}

// A truncated or corrupt gzip file is an error that names the file and
// says what is wrong, not compress/gzip's bare "unexpected EOF".
func TestDamagedGzipIsNamed(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(strings.Repeat("a line of text\n", 200)))
	zw.Close()
	whole := buf.Bytes()
	dir := t.TempDir()
	truncated, corrupt := filepath.Join(dir, "truncated.gz"), filepath.Join(dir, "corrupt.gz")
	os.WriteFile(truncated, whole[:len(whole)/2], 0o644)
	bad := slices.Clone(whole)
	bad[len(bad)-6] ^= 0xff // the CRC-32 in the trailer
	os.WriteFile(corrupt, bad, 0o644)
	for path, want := range map[string]string{truncated: "truncated.gz: the gzip data ends early: the file is truncated", corrupt: "corrupt.gz: the gzip data is corrupt"} {
		if _, err := ReadLines(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadLines(%s): %v, want %q", filepath.Base(path), err, want)
		}
	}
}
