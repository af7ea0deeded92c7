package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShippedModelTranslates: the model committed under models/l10n-en-de
// loads right after a clone (run.json, vocabulary and BPE beside it) and
// translates its check sentences exactly as recorded when it was shipped
// (check.tsv: source TAB output, beam 5; int8 decoding is bit-identical
// across the AVX2 and pure-Go kernels and thread counts).
func TestShippedModelTranslates(t *testing.T) {
	dir := filepath.Join("..", "..", "models", "l10n-en-de")
	check, err := os.ReadFile(filepath.Join(dir, "check.tsv"))
	if err != nil {
		t.Skipf("no shipped model here (%v)", err)
	}
	var src, want []string
	for _, line := range strings.Split(strings.TrimRight(string(check), "\n"), "\n") {
		s, w, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("check.tsv: %q has no tab", line)
		}
		src, want = append(src, s), append(want, w)
	}
	in := filepath.Join(t.TempDir(), "src.en")
	os.WriteFile(in, []byte(strings.Join(src, "\n")+"\n"), 0o644)
	got := strings.Split(strings.TrimRight(run(t, "translate", "-m", dir, "-i", in, "--beam", "5", "--threads", "1"), "\n"), "\n")
	if len(got) != len(want) {
		t.Fatalf("%d outputs for %d check sentences:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%q → %q, shipped as %q", src[i], got[i], want[i])
		}
	}
}

// The README, where a new user meets the shipped model, says what it
// cannot do: it knows software text only, and English→German only.
func TestReadmeSaysWhatTheShippedModelKnows(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(b)), " ")
	for _, want := range []string{"software text only", "English into German only"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q about models/l10n-en-de", want)
		}
	}
}
