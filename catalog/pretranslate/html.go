package pretranslate

import (
	"context"
	"fmt"

	"github.com/strata-nmt/strata/catalog/markup"
)

// HTML translates every unit of an HTML document (its sentences, alt and
// title values). A unit whose translation lost, duplicated or invented
// markup or a placeholder, or moved an element out of its parent, stays
// in the source language and is reported.
func HTML(ctx context.Context, tr Translator, d *markup.Doc, o Options) (*Report, error) {
	r := &Report{Name: d.Name, Units: len(d.Units), Candidates: len(d.Units)}
	texts := make([]string, len(d.Units))
	for i, u := range d.Units {
		texts[i] = u.Masked.Text
	}
	outs, err := unique(ctx, tr, texts, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Name, err)
	}
	for i, err := range d.SetTranslations(outs) {
		if err != nil {
			u := d.Units[i]
			r.Failed = append(r.Failed, Failure{Line: u.Line, ID: u.Source(), Err: err})
			continue
		}
		r.Translated++
	}
	return r, nil
}
