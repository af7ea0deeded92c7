package data

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/strata-nmt/strata/catalog/placeholder"
	"github.com/strata-nmt/strata/catalog/po"
	"github.com/strata-nmt/strata/catalog/tmx"
	"github.com/strata-nmt/strata/catalog/xliff"
	"github.com/strata-nmt/strata/internal/textio"
)

// readCatalog reads the pairs of a TMX, XLIFF or PO file in the direction
// of s.Pair, streaming unit by unit. Multi-line strings give one pair per
// line when both sides have as many lines, and none otherwise: a corpus is
// one sentence a line.
func readCatalog(s *CorpusSpec) (*Parallel, error) {
	in, err := textio.Open(s.Path)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	p := &Parallel{}
	src, tgt := s.langs()
	add := func(a, b string) {
		if strings.TrimSpace(a) != "" && strings.TrimSpace(b) != "" { // an empty target is no translation
			p.addLines(a, b)
		}
	}
	switch s.Format {
	case "tmx":
		err = tmx.Read(in, s.Path, nil, placeholder.Options{}, func(u *tmx.Unit) error {
			a, b := u.Variant(src), u.Variant(tgt)
			if a != nil && b != nil {
				add(inlineText(s, a.Text, a.Kept), inlineText(s, b.Text, b.Kept))
			}
			return nil
		})
	case "xliff":
		_, err = xliff.Read(in, s.Path, nil, placeholder.Options{}, func(u *xliff.Unit) error {
			if err := checkXLIFFLangs(s, u); err != nil {
				return err
			}
			if u.HasTarget && (len(s.States) == 0 || slices.Contains(s.States, u.State)) {
				add(inlineText(s, u.Source, u.SourceKept), inlineText(s, u.Target, u.TargetKept))
			}
			return nil
		})
	case "po":
		err = readPO(in, s, add)
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

func inlineText(s *CorpusSpec, text, kept string) string {
	if s.Inline == "keep" {
		return kept
	}
	return text
}

// checkXLIFFLangs refuses a document in other languages than the pair.
func checkXLIFFLangs(s *CorpusSpec, u *xliff.Unit) error {
	src, tgt := s.langs()
	if u.SrcLang != "" && !tmx.SameLanguage(u.SrcLang, src) {
		return fmt.Errorf("%s:%d: source language %s, but the config's pair %s says %s", s.Path, u.Line, u.SrcLang, s.Pair, src)
	}
	if u.TgtLang != "" && !tmx.SameLanguage(u.TgtLang, tgt) {
		return fmt.Errorf("%s:%d: target language %s, but the config's pair %s says %s", s.Path, u.Line, u.TgtLang, s.Pair, tgt)
	}
	return nil
}

// readPO pairs msgid with msgstr, or msgstr[0], and msgid_plural with the
// other plural forms. Untranslated, obsolete and (unless s.Fuzzy) fuzzy
// entries and the header are skipped.
func readPO(in io.Reader, s *CorpusSpec, add func(a, b string)) error {
	r := po.NewReader(in, s.Path)
	for {
		e, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if e.IsHeader() || e.Obsolete || (e.Fuzzy() && !s.Fuzzy) {
			continue
		}
		for i, str := range e.Str {
			id := e.ID
			if i > 0 {
				id = e.IDPlural
			}
			if str != "" {
				add(id, str)
			}
		}
	}
}

// addLines appends a pair, one per line when both sides have as many
// lines; blank line pairs are skipped, since they carry nothing.
func (p *Parallel) addLines(a, b string) {
	la := strings.Split(strings.TrimSuffix(a, "\n"), "\n")
	lb := strings.Split(strings.TrimSuffix(b, "\n"), "\n")
	if len(la) != len(lb) {
		return
	}
	for i := range la {
		x, y := strings.TrimSpace(strings.TrimSuffix(la[i], "\r")), strings.TrimSpace(strings.TrimSuffix(lb[i], "\r"))
		if x == "" && y == "" {
			continue
		}
		p.Src, p.Tgt = append(p.Src, x), append(p.Tgt, y)
	}
}
