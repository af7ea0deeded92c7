package data

import (
	"os"
	"path/filepath"
	"testing"
)

// A prepare that fails (or is interrupted) while reading its corpora has
// written nothing, and leaves no empty output directory behind.
func TestFailedPrepareLeavesNoDirectory(t *testing.T) {
	dir := t.TempDir()
	cfg := smallCorpus(t, dir)
	writeFile(t, filepath.Join(dir, "train.fr"), "ouvrir\n") // fewer lines than train.en
	out := filepath.Join(dir, "out")
	if _, err := Prepare(cfg, out, PrepareOptions{}); err == nil {
		t.Fatal("a corpus with unequal sides was prepared")
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the failed prepare left %s (%v)", out, err)
	}
}
