package corpus

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"os"
	"sort"
	"strings"
)

// Overlap compares a language's training pairs with a reference corpus's.
type Overlap struct {
	Lang string `json:"lang"`
	// Ours, Reference and Shared count distinct pairs.
	Ours      int `json:"ours"`
	Reference int `json:"reference"`
	Shared    int `json:"shared"`
	// OfOurs is Shared/Ours, OfReference Shared/Reference.
	OfOurs      float64 `json:"of_ours"`
	OfReference float64 `json:"of_reference"`
	// Missing explains the reference pairs this build lacks: "dropped:
	// RULE" (extracted, then cleaned away), "held out", "other
	// translation" (English string extracted with another translation),
	// "not extracted" (in no package read).
	Missing map[string]int `json:"missing"`
	// ByPackage counts shared pairs per package of origin (the first that
	// gave the pair), the packages that explain the overlap.
	ByPackage map[string]int `json:"by_package"`
}

// readTSVGz reads a gzip TSV of pairs into a set of "en\ttgt".
func readTSVGz(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	set := map[string]bool{}
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		set[sc.Text()] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return set, nil
}

// overlapWith measures a language's training pairs against the reference
// pairs ref; dropped maps a pair ("en\ttgt", cleaned) to the rule that
// dropped it, extractedEn holds the cleaned English strings extracted.
func overlapWith(lang string, train []Pair, ref map[string]bool, dropped map[string]string, extractedEn map[string]bool, held map[string]bool) Overlap {
	o := Overlap{Lang: lang, Reference: len(ref), Missing: map[string]int{}, ByPackage: map[string]int{}}
	ours := map[string]bool{}
	for _, p := range train {
		k := p.En + "\t" + p.Tgt
		if ours[k] {
			continue
		}
		ours[k] = true
		if ref[k] {
			o.Shared++
			o.ByPackage[strings.SplitN(p.Origin, ":", 2)[0]]++
		}
	}
	o.Ours = len(ours)
	for k := range ref {
		if ours[k] {
			continue
		}
		en, tgt, _ := strings.Cut(k, "\t")
		switch {
		case dropped[k] != "":
			o.Missing["dropped: "+dropped[k]]++
		case held[Key(en)] || held[Key(tgt)]:
			o.Missing["held out"]++
		case extractedEn[en]:
			o.Missing["other translation"]++
		default:
			o.Missing["not extracted"]++
		}
	}
	if o.Ours > 0 {
		o.OfOurs = float64(o.Shared) / float64(o.Ours)
	}
	if o.Reference > 0 {
		o.OfReference = float64(o.Shared) / float64(o.Reference)
	}
	return o
}

// topPackages lists the n packages with most shared pairs, for the report.
func (o Overlap) topPackages(n int) []string {
	names := sortedKeys(o.ByPackage)
	sort.SliceStable(names, func(i, j int) bool { return o.ByPackage[names[i]] > o.ByPackage[names[j]] })
	var out []string
	for _, p := range names[:min(n, len(names))] {
		out = append(out, fmt.Sprintf("%s %d", p, o.ByPackage[p]))
	}
	return out
}
