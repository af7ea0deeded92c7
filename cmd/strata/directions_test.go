package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shipped en→de model knows its direction from its data manifest: it
// translates en→de and refuses de→en and en→en, naming en→de, instead of
// echoing its input with exit status 0.
func TestShippedModelRefusesUntrainedDirections(t *testing.T) {
	dir := filepath.Join("..", "..", "models", "l10n-en-de")
	if _, err := os.Stat(filepath.Join(dir, "model.bin")); err != nil {
		t.Skipf("no shipped model here (%v)", err)
	}
	in := filepath.Join(t.TempDir(), "in.txt")
	os.WriteFile(in, []byte("Datei öffnen\n"), 0o644)
	for _, d := range [][2]string{{"de", "en"}, {"en", "en"}} {
		_, _, err := runErr("translate", "-m", dir, "-i", in, "--src-lang", d[0], "--tgt-lang", d[1], "--threads", "1")
		if err == nil || !strings.Contains(err.Error(), "en→de") {
			t.Errorf("%s→%s: %v, want a refusal naming en→de", d[0], d[1], err)
		}
	}
	_, _, err := runErr("translate", "-m", dir, "-i", in, "--src-lang", "en", "--tgt-lang", "de", "--threads", "1", "--trained-directions", "de-en")
	if err == nil || !strings.Contains(err.Error(), "de→en") {
		t.Errorf("--trained-directions de-en, en→de: %v, want a refusal naming de→en", err)
	}
	_, _, err = runErr("translate", "-m", dir, "-i", in, "--src-lang", "en", "--tgt-lang", "de", "--pivot", "de", "--threads", "1")
	if err == nil || !strings.Contains(err.Error(), "third language") {
		t.Errorf("--pivot de --tgt-lang de: %v, want a refusal", err)
	}
	run(t, "translate", "-m", dir, "-i", in, "--src-lang", "en", "--tgt-lang", "de", "--threads", "1", "--greedy")
}
