package corpus

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// Held-out set sizes when the corpus splits its own.
const (
	HeldOutSize     = 1000
	MinHeldOutWords = 5
)

// Key normalises a string for the held-out test: lower case, single
// spaces, no final punctuation. Two strings with the same key count as the
// same string, so "Open the file." in test keeps "open the file" out of
// training.
func Key(s string) string {
	s = strings.ToLower(Normalize(s))
	return strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

// HeldOut is the dev and test sets: line i of every language's list is
// the same string.
type HeldOut struct {
	Dev, Test map[string][]string // language (English included) -> lines
	// Source says where they came from: "reference" or "split".
	Source string
}

// keys returns the held-out keys of one language.
func (h *HeldOut) keys(lang string) map[string]bool {
	k := map[string]bool{}
	for _, set := range []map[string][]string{h.Dev, h.Test} {
		for _, s := range set[lang] {
			k[Key(s)] = true
		}
	}
	return k
}

// splitHeldOut picks dev and test strings among the English strings that
// have a translation in every language and at least MinHeldOutWords
// words, by a hash of the string, so the choice does not depend on the
// order packages were read in. The first translation of each is used.
func splitHeldOut(langs []string, clean map[string][]Pair, size int) *HeldOut {
	first := map[string]map[string]string{} // en -> lang -> translation
	for _, l := range langs {
		for _, p := range clean[l] {
			if first[p.En] == nil {
				first[p.En] = map[string]string{}
			}
			if _, ok := first[p.En][l]; !ok {
				first[p.En][l] = p.Tgt
			}
		}
	}
	var cands []string
	seen := map[string]bool{}
	for en, tr := range first {
		if len(tr) == len(langs) && len(strings.Fields(en)) >= MinHeldOutWords && !seen[Key(en)] {
			seen[Key(en)] = true
			cands = append(cands, en)
		}
	}
	hash := func(s string) string { h := sha256.Sum256([]byte("strata-l10n\x00" + s)); return string(h[:]) }
	sort.Slice(cands, func(i, j int) bool { return hash(cands[i]) < hash(cands[j]) })
	h := &HeldOut{Dev: map[string][]string{}, Test: map[string][]string{}, Source: "split"}
	for i, en := range cands {
		set := h.Dev
		switch {
		case i >= 2*size:
			return h
		case i >= size:
			set = h.Test
		}
		set[English] = append(set[English], en)
		for _, l := range langs {
			set[l] = append(set[l], first[en][l])
		}
	}
	return h
}

// ReferenceSums are the SHA-256 sums of the dev and test files of the
// published l10n corpus (../shared/data/l10n), so that reusing them is
// checked, not assumed.
var ReferenceSums = map[string]string{}

// readReference reads the dev and test files of a reference corpus for
// English and langs, checking each against ReferenceSums when it has an
// entry for it.
func readReference(dir string, langs []string, want map[string]string) (*HeldOut, []FileSum, error) {
	h := &HeldOut{Dev: map[string][]string{}, Test: map[string][]string{}, Source: "reference"}
	var sums []FileSum
	for _, split := range []string{"dev", "test"} {
		set := map[string]map[string][]string{"dev": h.Dev, "test": h.Test}[split]
		for _, l := range append([]string{English}, langs...) {
			rel := filepath.Join(split, split+"."+l)
			b, err := os.ReadFile(filepath.Join(dir, rel))
			if err != nil {
				return nil, nil, fmt.Errorf("reference corpus: %w", err)
			}
			s := sha256.Sum256(b)
			sum := hex.EncodeToString(s[:])
			if want, ok := want[filepath.ToSlash(rel)]; ok && want != sum {
				return nil, nil, fmt.Errorf("reference corpus: %s has SHA-256 %s, want %s (the published file): it was changed", filepath.Join(dir, rel), sum, want)
			}
			sums = append(sums, FileSum{Path: filepath.ToSlash(rel), Size: int64(len(b)), SHA256: sum})
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			if n := len(set[English]); l != English && n != len(lines) {
				return nil, nil, fmt.Errorf("reference corpus: %s has %d lines, %s.%s has %d", rel, len(lines), split, English, n)
			}
			set[l] = lines
		}
	}
	return h, sums, nil
}

// FileSum is a file's path (relative to its corpus), size and SHA-256.
type FileSum struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}
