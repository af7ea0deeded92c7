package pretranslate

import (
	"context"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/strata-nmt/strata/catalog/po"
)

// PO fills the untranslated entries of a catalogue (and the fuzzy ones
// with o.Fuzzy), marking each fuzzy. A plural entry gets msgid's
// translation in msgstr[0] and msgid_plural's in the other forms, as many
// as the header's Plural-Forms asks (a language with one form gets
// msgid_plural's). msgctxt, comments and every other entry are kept.
func PO(ctx context.Context, tr Translator, c *po.Catalog, o Options) (*Report, error) {
	nplurals, err := c.NPlurals()
	if err != nil {
		return nil, err
	}
	if m := c.HeaderField("X-Accelerator-Marker"); utf8.RuneCountInString(m) == 1 {
		o.Placeholders.Accelerator, _ = utf8.DecodeRuneInString(m)
	}
	r := &Report{Name: c.Name}
	var todo []*po.Entry
	var texts []string
	for _, e := range c.Entries {
		if e.IsHeader() || e.Obsolete {
			continue
		}
		r.Units++
		if !isEmpty(e) && !(o.Fuzzy && e.Fuzzy()) {
			r.Done++
			continue
		}
		todo = append(todo, e)
		texts = append(texts, e.ID)
		if e.HasPlural {
			texts = append(texts, e.IDPlural)
		}
	}
	r.Candidates = len(todo)
	outs, err := Strings(ctx, tr, texts, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	k := 0
	for _, e := range todo {
		one := outs[k]
		many := one
		k++
		if e.HasPlural {
			many = outs[k]
			k++
		}
		if err := firstErr(one, many); err != nil {
			r.Failed = append(r.Failed, Failure{Line: e.Line, ID: e.ID, Err: err})
			continue
		}
		e.SetStr(pluralForms(e, one.Text, many.Text, nplurals))
		e.SetFlag("fuzzy", true)
		r.Translated++
	}
	return r, nil
}

func isEmpty(e *po.Entry) bool {
	return !slices.ContainsFunc(e.Str, func(s string) bool { return s != "" })
}

func firstErr(a, b Outcome) error {
	if a.Err != nil {
		return a.Err
	}
	if b.Err != nil {
		return fmt.Errorf("msgid_plural: %w", b.Err)
	}
	return nil
}

// pluralForms lays out an entry's msgstr values.
func pluralForms(e *po.Entry, one, many string, nplurals int) []string {
	if !e.HasPlural {
		return []string{one}
	}
	str := make([]string, nplurals)
	for i := range str {
		str[i] = many
	}
	if nplurals > 1 {
		str[0] = one
	}
	return str
}
