package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// subword encode splits lines into the data directory's pieces (or token
// ids) and decode gives every line back exactly, spaces and characters
// the BPE never saw included; an unknown piece is an error naming the
// input and line.
func TestSubwordEncodeDecodeRoundTrip(t *testing.T) {
	data := filepath.Join(quickstartDir(t), "data")
	dir := t.TempDir()
	text := "the first line\n  two  spaces and ☃ \n\nlast line"
	in := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(in, []byte(text+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ids := range []bool{false, true} {
		flag := []string{}
		if ids {
			flag = []string{"--ids"}
		}
		pieces := filepath.Join(dir, "pieces.txt")
		run(t, append([]string{"subword", "encode", "--data", data, "-i", in, "-o", pieces}, flag...)...)
		enc := readFile(t, pieces)
		if n := strings.Count(enc, "\n"); n != 4 {
			t.Fatalf("encode (ids %v) wrote %d lines, want 4:\n%s", ids, n, enc)
		}
		if !ids && !strings.Contains(enc, "▁") {
			t.Errorf("encode wrote no pieces with the word marker:\n%s", enc)
		}
		if got := run(t, append([]string{"subword", "decode", "--data", data, "-i", pieces}, flag...)...); got != text+"\n" {
			t.Errorf("decode(encode(x)) (ids %v) = %q, want %q", ids, got, text+"\n")
		}
	}
	first := strings.Fields(run(t, "subword", "encode", "--data", data, "-i", in))[0]
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte(first+"\n"+first+" ▁no-such-piece-here\n"), 0o644)
	_, _, err := runErr("subword", "decode", "--data", data, "-i", bad)
	if err == nil || !strings.Contains(err.Error(), "bad.txt:2:") || !strings.Contains(err.Error(), "no-such-piece-here") {
		t.Errorf("decode of an unknown piece: %v, want an error naming bad.txt:2 and the piece", err)
	}
}
