package data

import (
	"strings"

	"github.com/strata-nmt/strata/catalog/mo"
)

// Corpus formats a CorpusSpec's Path may be in.
const (
	FormatTSV = "tsv"
	FormatMO  = "mo"
)

// inferFormat takes format mo from a path ending in .mo and stores TSV
// as "" (see CorpusSpec.Format); checkFormat then checks it.
func (e *CorpusSpec) inferFormat() {
	if e.Format == "" && strings.HasSuffix(strings.ToLower(e.Path), ".mo") {
		e.Format = FormatMO
	}
	if e.Format == FormatTSV {
		e.Format = ""
	}
}

// ReadMO reads a gettext MO catalogue as a parallel corpus: msgid is the
// source, msgstr the target. A plural entry gives two pairs, msgid with
// msgstr[0] and msgid_plural with msgstr[1] (forms beyond the second, as
// Slavic languages have, repeat the plural and are left out; a language
// with one form pairs msgid_plural with msgstr[0]). Contexts are dropped;
// the header and entries with an empty msgstr are left out. Src[i] and
// Tgt[i] are the (i+1)th pair in file order, which is what prepare reports
// as the line.
func ReadMO(path string) (*Parallel, error) {
	c, err := mo.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p := &Parallel{}
	add := func(src, tgt string) {
		if tgt != "" {
			p.Src, p.Tgt = append(p.Src, src), append(p.Tgt, tgt)
		}
	}
	for _, m := range c.Messages {
		add(m.ID, m.Str[0])
		if m.Plural != "" {
			add(m.Plural, m.Str[min(1, len(m.Str)-1)])
		}
	}
	return p, nil
}
