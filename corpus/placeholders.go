package corpus

import (
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/strata-nmt/strata/catalog/placeholder"
)

// PlaceholderHeldOut is the number of dev and of test pairs of the
// placeholder set, at most: a smaller set gives a tenth of its English
// strings to each.
const PlaceholderHeldOut = 500

// Reasons a placeholder pair is left out, beyond the cleaning rules.
const (
	DropMismatch    = "placeholder mismatch" // MaskPair refused: different sets, swapped arguments, tags out of order
	DropUnprotected = "unprotected"          // a placeholder form the masking does not protect (Qt %1, @VAR@)
	DropNoText      = "no text"              // nothing but placeholders and punctuation
)

// PlaceholderReport is what happened to one language's pairs that the
// cleaning rules dropped for placeholders or markup.
type PlaceholderReport struct {
	Candidates int            `json:"candidates"`
	Dropped    map[string]int `json:"dropped"`
	Train      int            `json:"train"`
	Dev        int            `json:"dev"`
	Test       int            `json:"test"`
}

// maskedPair is a pair as the masking sees it: the cleaned strings and
// their masked forms.
type maskedPair struct{ en, tgt, mEn, mTgt string }

var sentinelRE = regexp.MustCompile(`\{[1-9][0-9]*\}`)

// maskCandidates masks the pairs dropped for placeholders or markup (as
// translate masks a string: placeholder.MaskPair with every kind) and
// applies the other cleaning rules to the masked text; pairs that share a
// string with the l10n dev or test sets are left out.
func maskCandidates(lang string, cands []Pair, heldEn, heldL map[string]bool, r *PlaceholderReport) []maskedPair {
	seen := map[string]bool{}
	var out []maskedPair
	for _, p := range cands {
		m, mTgt, err := placeholder.MaskPair(p.En, p.Tgt, placeholder.Options{})
		reason := ""
		switch {
		case err != nil:
			reason = DropMismatch
		case unprotected(m.Text) || unprotected(mTgt):
			reason = DropUnprotected
		case !strings.ContainsFunc(sentinelRE.ReplaceAllString(m.Text, ""), unicode.IsLetter):
			reason = DropNoText
		case strings.EqualFold(m.Text, mTgt):
			reason = DropIdentical
		case !inScript(English, m.Text) || !inScript(lang, mTgt):
			reason = DropScript
		case !lengthOK(m.Text, mTgt):
			reason = DropLength
		case seen[m.Text+"\t"+mTgt]:
			reason = "duplicate"
		case heldEn[Key(p.En)] || heldL[Key(p.Tgt)]:
			reason = "held out"
		}
		if reason != "" {
			r.Dropped[reason]++
			continue
		}
		seen[m.Text+"\t"+mTgt] = true
		out = append(out, maskedPair{p.En, p.Tgt, m.Text, mTgt})
	}
	return out
}

// unprotected says whether masked text still holds a placeholder or
// markup the corpus rules know and the masking leaves as text.
func unprotected(masked string) bool {
	s := sentinelRE.ReplaceAllString(masked, " ")
	return placeholderRE.MatchString(s) || markupRE.MatchString(s)
}

// splitPlaceholders picks dev and test pairs by a hash of the masked
// English string (one pair per string) and keeps out of training every
// pair sharing a masked English or target string with them.
func splitPlaceholders(ps []maskedPair, size int) (train, dev, test []maskedPair) {
	byKey := map[string]maskedPair{}
	var keys []string
	for _, p := range ps {
		k := Key(p.mEn)
		if _, ok := byKey[k]; !ok {
			byKey[k] = p
			keys = append(keys, k)
		}
	}
	size = min(size, len(keys)/10)
	hash := func(s string) string {
		h := sha256.Sum256([]byte("strata-l10n-placeholders\x00" + s))
		return string(h[:])
	}
	sort.Slice(keys, func(i, j int) bool { return hash(keys[i]) < hash(keys[j]) })
	heldEn, heldT := map[string]bool{}, map[string]bool{}
	for i, k := range keys[:2*size] {
		p := byKey[k]
		heldEn[k], heldT[Key(p.mTgt)] = true, true
		if i < size {
			dev = append(dev, p)
		} else {
			test = append(test, p)
		}
	}
	for _, p := range ps {
		if !heldEn[Key(p.mEn)] && !heldT[Key(p.mTgt)] {
			train = append(train, p)
		}
	}
	return train, dev, test
}

// buildPlaceholders writes one language's placeholder set under
// DIR/placeholders: train/en-LANG.tsv.gz and dev/en-LANG.tsv masked (for
// training and validation), and dev/en-LANG.{en,LANG},
// test/en-LANG.{en,LANG} unmasked (translate masks them itself; the
// references are what a translator wrote).
func buildPlaceholders(dir, lang string, cands []Pair, heldEn, heldL map[string]bool, size int) (*PlaceholderReport, []FileSum, error) {
	r := &PlaceholderReport{Candidates: len(cands), Dropped: map[string]int{}}
	ps := maskCandidates(lang, cands, heldEn, heldL, r)
	train, dev, test := splitPlaceholders(ps, size)
	r.Dropped["held out"] += len(ps) - len(train) - len(dev) - len(test)
	r.Train, r.Dev, r.Test = len(train), len(dev), len(test)
	base := "placeholders"
	pair := "en-" + lang
	files := []struct {
		rel   string
		gz    bool
		ps    []maskedPair
		field func(maskedPair) string
	}{
		{filepath.Join(base, "train", pair+".tsv.gz"), true, train, func(p maskedPair) string { return p.mEn + "\t" + p.mTgt }},
		{filepath.Join(base, "dev", pair+".tsv"), false, dev, func(p maskedPair) string { return p.mEn + "\t" + p.mTgt }},
		{filepath.Join(base, "dev", pair+".en"), false, dev, func(p maskedPair) string { return p.en }},
		{filepath.Join(base, "dev", pair+"."+lang), false, dev, func(p maskedPair) string { return p.tgt }},
		{filepath.Join(base, "test", pair+".en"), false, test, func(p maskedPair) string { return p.en }},
		{filepath.Join(base, "test", pair+"."+lang), false, test, func(p maskedPair) string { return p.tgt }},
	}
	var sums []FileSum
	for _, f := range files {
		err := writeAtomic(filepath.Join(dir, f.rel), func(w io.Writer) error {
			return writeLines(w, f.gz, f.ps, f.field)
		})
		if err != nil {
			return nil, nil, err
		}
		s, err := sumOf(dir, f.rel)
		if err != nil {
			return nil, nil, err
		}
		sums = append(sums, s)
	}
	return r, sums, nil
}

// writeLines writes one line per pair, gzipped when gz is set.
func writeLines(w io.Writer, gz bool, ps []maskedPair, field func(maskedPair) string) error {
	var z *gzip.Writer
	if gz {
		z = gzip.NewWriter(w)
		w = z
	}
	for _, p := range ps {
		if _, err := fmt.Fprintln(w, field(p)); err != nil {
			return err
		}
	}
	if z != nil {
		return z.Close()
	}
	return nil
}
