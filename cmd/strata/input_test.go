package main

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func gzipFile(t *testing.T, src, dst string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(readFile(t, src)))
	zw.Close()
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// translate reads a FIFO (as <(zcat f.gz) gives), gzip and standard input,
// and translates each exactly as the plain file.
func TestTranslateInputFromAnywhere(t *testing.T) {
	qs := quickstartDir(t)
	dir := t.TempDir()
	src := filepath.Join(qs, "corpus", "test.qaa")
	args := func(in string) []string {
		return []string{"translate", "--model", filepath.Join(qs, "run"), "--input", in, "--greedy", "--threads", "1"}
	}
	want := run(t, args(src)...)
	gz := filepath.Join(dir, "test.qaa.gz")
	gzipFile(t, src, gz)
	if got := run(t, args(gz)...); got != want {
		t.Errorf("translating the .gz differs from translating the plain file")
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.Write([]byte(readFile(t, src)))
		w.Close()
	}()
	if got := run(t, args(fifo)...); got != want {
		t.Errorf("translating from a FIFO differs from translating the plain file")
	}
	rootCmd.SetIn(strings.NewReader(readFile(t, src)))
	defer rootCmd.SetIn(nil)
	if got := run(t, args("-")...); got != want {
		t.Errorf("translating standard input differs from translating the plain file")
	}
}

// A wrong language is reported before any input is read, empty input too.
func TestTranslateChecksLanguagesFirst(t *testing.T) {
	qs := quickstartDir(t)
	empty := filepath.Join(t.TempDir(), "empty")
	os.WriteFile(empty, nil, 0o644)
	_, _, err := runErr("translate", "--model", filepath.Join(qs, "run"), "--input", empty, "--tgt-lang", "xx")
	if err == nil || !strings.Contains(err.Error(), `"xx"`) {
		t.Fatalf("--tgt-lang xx on empty input: %v, want an error naming xx", err)
	}
}

// langid reads gzip as text, not as bytes.
func TestLangidGzip(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "de.txt")
	os.WriteFile(plain, []byte("Das ist ein ganz normaler deutscher Satz mit vielen Wörtern.\nIch habe heute keine Zeit, morgen vielleicht.\n"), 0o644)
	gz := plain + ".gz"
	gzipFile(t, plain, gz)
	want := run(t, "langid", "--json", plain)
	if got := run(t, "langid", "--json", gz); got != want {
		t.Errorf("langid on gzip:\n%s\nwant (plain):\n%s", got, want)
	}
}

// eval refuses to score nothing.
func TestEvalRefusesNothing(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, nil, 0o644)
	one := filepath.Join(dir, "one")
	os.WriteFile(one, []byte("a b c\n"), 0o644)
	if _, _, err := runErr("eval", "--hyp", empty, "--ref", empty); err == nil {
		t.Error("eval of two empty files succeeded")
	}
	if _, _, err := runErr("eval", "--hyp", one, "--ref", one, "--metrics", ""); err == nil {
		t.Error(`eval --metrics "" succeeded`)
	}
}
