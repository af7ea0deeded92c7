package analysis

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/internal/atomicfile"
)

// HypFingerprint identifies what the hypotheses eval-matrix keeps (in
// OUT/hyp, to resume an interrupted evaluation) were made with: the model
// files' content (every member of an ensemble), the pivot model, the test
// files and the search options.
type HypFingerprint struct {
	Models   []string
	Pivot    string `json:",omitempty"`
	Test     map[string]string
	MaxLines int
	Search   decode.Options
}

// NewHypFingerprint fingerprints models (files), the pivot model (a file,
// or empty), the test files (keyed by language, PART/LANG in a suite of
// pairs), the line limit and the search options.
func NewHypFingerprint(models []string, pivot string, ts *TestSuite, maxLines int, search decode.Options) (HypFingerprint, error) {
	fp := HypFingerprint{Test: map[string]string{}, MaxLines: maxLines, Search: search}
	for l, p := range ts.Files() {
		abs, err := filepath.Abs(p)
		if err != nil {
			return fp, err
		}
		fp.Test[l] = abs
	}
	for _, m := range models {
		d, err := fileDigest(m)
		if err != nil {
			return fp, err
		}
		fp.Models = append(fp.Models, d)
	}
	if pivot != "" {
		d, err := fileDigest(pivot)
		if err != nil {
			return fp, err
		}
		fp.Pivot = d
	}
	return fp, nil
}

// PrepareHypDir keeps dir's hypotheses when they were made as fp says, and
// empties it otherwise (they are a cache of translations, remade at once).
func PrepareHypDir(dir string, fp HypFingerprint, log io.Writer) error {
	want, _ := json.MarshalIndent(fp, "", "  ")
	path := filepath.Join(dir, "fingerprint.json")
	if have, err := os.ReadFile(path); err == nil && string(have) == string(want) {
		return nil
	} else if err == nil {
		fmt.Fprintf(log, "eval-matrix: hypotheses in %s were made with another model, test set or options; translating again\n", dir)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, want)
}

// fileDigest names a file by its SHA-256 (not its path, which may be
// spelled differently between runs).
func fileDigest(file string) (string, error) {
	fh, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
