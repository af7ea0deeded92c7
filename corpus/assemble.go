package corpus

import (
	"fmt"
	"path/filepath"
	"strings"
)

// LangReport is what happened to one language's pairs.
type LangReport struct {
	Lang      string `json:"lang"`
	Extracted int    `json:"extracted"`
	// Dropped counts pairs per cleaning rule; "duplicate" and "held out"
	// count pairs left out after cleaning.
	Dropped map[string]int `json:"dropped"`
	Train   int            `json:"train"`
	// Leaked counts training pairs that share a string with dev or test
	// (after normalising); always 0, checked after writing.
	Leaked  int      `json:"leaked"`
	Overlap *Overlap `json:"overlap,omitempty"`
	// Placeholders reports the fine-tuning set built from the pairs
	// dropped for placeholders or markup (docs/data.md).
	Placeholders *PlaceholderReport `json:"placeholders,omitempty"`
}

// assemble cleans, dedupes, splits and writes the corpus files, filling
// the manifest's report.
func assemble(opt Options, raw map[string][]Pair, m *Manifest) error {
	clean := map[string][]Pair{}
	masked := map[string][]Pair{} // dropped for placeholders or markup
	dropped := map[string]map[string]string{}
	reports := map[string]*LangReport{}
	for _, l := range opt.Langs {
		r := &LangReport{Lang: l, Extracted: len(raw[l]), Dropped: map[string]int{}}
		reports[l] = r
		clean[l], dropped[l], masked[l] = cleanPairs(l, raw[l], r.Dropped)
	}
	held, err := heldOut(opt, clean)
	if err != nil {
		return err
	}
	m.HeldOut = held.Source
	heldEn := held.keys(English)
	for _, l := range opt.Langs {
		r := reports[l]
		heldL := held.keys(l)
		var train []Pair
		for _, p := range clean[l] {
			if heldEn[Key(p.En)] || heldL[Key(p.Tgt)] {
				r.Dropped["held out"]++
				continue
			}
			train = append(train, p)
		}
		r.Train = len(train)
		sum, err := writeTrain(opt.Output, l, train)
		if err != nil {
			return err
		}
		m.Outputs = append(m.Outputs, sum)
		if err := checkNoLeak(filepath.Join(opt.Output, sum.Path), heldEn, heldL, &r.Leaked); err != nil {
			return err
		}
		ph, phSums, err := buildPlaceholders(opt.Output, l, masked[l], heldEn, heldL, opt.PlaceholderHeldOut)
		if err != nil {
			return err
		}
		r.Placeholders = ph
		m.Outputs = append(m.Outputs, phSums...)
		if opt.Reference != "" {
			if r.Overlap, err = referenceOverlap(opt.Reference, l, train, clean[l], dropped[l], held); err != nil {
				return err
			}
		}
		m.Report = append(m.Report, *r)
	}
	sums, err := writeHeldOut(opt.Output, append([]string{English}, opt.Langs...), held)
	m.Outputs = append(m.Outputs, sums...)
	return err
}

// cleanPairs applies Clean and removes duplicate pairs, keeping the first.
// It returns the kept pairs, for the overlap report the rule that dropped
// each cleaned pair, and the cleaned pairs dropped for placeholders or
// markup (the placeholder set's candidates).
func cleanPairs(lang string, raw []Pair, counts map[string]int) ([]Pair, map[string]string, []Pair) {
	seen := map[string]bool{}
	why := map[string]string{}
	var out, masked []Pair
	for _, p := range raw {
		en, tgt, reason := Clean(lang, p.En, p.Tgt)
		k := en + "\t" + tgt
		switch {
		case reason != "":
			counts[reason]++
			if reason == DropPlaceholder || reason == DropMarkup {
				masked = append(masked, Pair{En: en, Tgt: tgt, Origin: p.Origin})
			}
			if _, ok := why[k]; !ok {
				why[k] = reason
			}
		case seen[k]:
			counts["duplicate"]++
		default:
			seen[k] = true
			out = append(out, Pair{En: en, Tgt: tgt, Origin: p.Origin})
		}
	}
	for k := range seen {
		delete(why, k) // kept from another package: not dropped
	}
	return out, why, masked
}

func heldOut(opt Options, clean map[string][]Pair) (*HeldOut, error) {
	if opt.Reference == "" {
		h := splitHeldOut(opt.Langs, clean, opt.HeldOutSize)
		if len(h.Test[English]) < opt.HeldOutSize {
			return nil, fmt.Errorf("only %d English strings of %d+ words are translated into all of %s; need %d for dev and test: fetch more packages or fewer languages", len(h.Dev[English])+len(h.Test[English]), MinHeldOutWords, strings.Join(opt.Langs, ","), 2*opt.HeldOutSize)
		}
		return h, nil
	}
	h, _, err := readReference(opt.Reference, opt.Langs, opt.ReferenceSums)
	return h, err
}

func referenceOverlap(dir, lang string, train, clean []Pair, dropped map[string]string, held *HeldOut) (*Overlap, error) {
	ref, err := readTSVGz(filepath.Join(dir, "train", "en-"+lang+".tsv.gz"))
	if err != nil {
		return nil, fmt.Errorf("reference corpus: %w", err)
	}
	en := map[string]bool{}
	for _, p := range clean {
		en[p.En] = true
	}
	for k := range dropped {
		e, _, _ := strings.Cut(k, "\t")
		en[e] = true
	}
	hk := held.keys(English)
	for k := range held.keys(lang) {
		hk[k] = true
	}
	o := overlapWith(lang, train, ref, dropped, en, hk)
	return &o, nil
}
