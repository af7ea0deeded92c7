package analysis

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-nmt/strata/decode"
)

// Kept hypotheses are reused only for the same models in the same roles:
// an ensemble of A and B is not A pivoting through B.
func TestHypDirFingerprintSeparatesEnsembleAndPivot(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.bin"), filepath.Join(dir, "b.bin")
	os.WriteFile(a, []byte("model a"), 0o644)
	os.WriteFile(b, []byte("model b"), 0o644)
	hyp := filepath.Join(dir, "hyp")
	ts := &TestSuite{Parts: []*TestSet{{Files: map[string]string{"en": a}}}}
	kept := filepath.Join(hyp, "de-en.txt")
	for _, c := range []struct {
		name   string
		models []string
		pivot  string
		keeps  bool
	}{
		{"ensemble a+b", []string{a, b}, "", false},
		{"same ensemble again", []string{a, b}, "", true},
		{"a pivoting through b", []string{a}, b, false},
		{"same pivot run again", []string{a}, b, true},
		{"a alone", []string{a}, "", false},
	} {
		fp, err := NewHypFingerprint(c.models, c.pivot, ts, 0, decode.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := PrepareHypDir(hyp, fp, io.Discard); err != nil {
			t.Fatal(err)
		}
		_, err = os.Stat(kept)
		if (err == nil) != c.keeps {
			t.Fatalf("%s: hypotheses kept = %v, want %v", c.name, err == nil, c.keeps)
		}
		os.WriteFile(kept, []byte("a hypothesis\n"), 0o644)
	}
}
