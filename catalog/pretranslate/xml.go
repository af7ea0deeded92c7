package pretranslate

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/strata-nmt/strata/catalog/placeholder"
	"github.com/strata-nmt/strata/catalog/tmx"
	"github.com/strata-nmt/strata/catalog/xliff"
)

// XLIFF fills the units without a target (or an empty one; with o.Fuzzy
// also those whose state asks for review), marking each for review:
// state="needs-review-translation" in 1.2, state="translated" with
// subState="strata:machine-translation" in 2.0. Units marked
// translate="no" are left alone. A unit whose masked source (inline
// elements as codes) holds no letter is copied.
func XLIFF(ctx context.Context, tr Translator, d *xliff.Doc, o Options) (*Report, error) {
	r := &Report{Name: d.Name}
	var todo []*xliff.Unit
	var ms []placeholder.Masked
	for _, u := range d.Units {
		if !u.Translate {
			continue
		}
		r.Units++
		if u.Target != "" && !(o.Fuzzy && needsReview(u.State)) {
			r.Done++
			continue
		}
		todo = append(todo, u)
		ms = append(ms, u.Masked())
	}
	r.Candidates = len(todo)
	outs, err := maskedOrCopied(ctx, tr, ms, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Name, err)
	}
	for i, u := range todo {
		if outs[i].Err != nil {
			r.Failed = append(r.Failed, Failure{Line: u.Line, ID: u.Source, Err: outs[i].Err})
			continue
		}
		u.SetTarget(outs[i].Text)
		r.Translated++
	}
	return r, nil
}

func needsReview(state string) bool {
	switch state {
	case "", "new", "needs-translation", "needs-adaptation", "needs-l10n", "needs-review-translation",
		"needs-review-adaptation", "needs-review-l10n", "initial":
		return true
	}
	return false
}

// TMX adds a variant in o.Tgt, marked for review, to every unit that has
// one in o.Src and none in o.Tgt.
func TMX(ctx context.Context, tr Translator, m *tmx.Memory, o Options) (*Report, error) {
	r := &Report{Name: m.Name}
	var todo []*tmx.Unit
	var ms []placeholder.Masked
	for _, u := range m.Units {
		src := u.Variant(o.Src)
		if src == nil {
			continue
		}
		r.Units++
		if u.Variant(o.Tgt) != nil {
			r.Done++
			continue
		}
		todo = append(todo, u)
		ms = append(ms, src.Masked())
	}
	r.Candidates = len(todo)
	outs, err := maskedOrCopied(ctx, tr, ms, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Name, err)
	}
	for i, u := range todo {
		if outs[i].Err != nil {
			r.Failed = append(r.Failed, Failure{Line: u.Line, ID: u.Variant(o.Src).Text, Err: outs[i].Err})
			continue
		}
		u.AddVariant(o.Tgt, outs[i].Text)
		r.Translated++
	}
	return r, nil
}

// maskedOrCopied translates the masked strings that hold a letter and
// copies the others (a unit of placeholders only).
func maskedOrCopied(ctx context.Context, tr Translator, ms []placeholder.Masked, o Options) ([]Outcome, error) {
	res := make([]Outcome, len(ms))
	var idx []int
	var send []placeholder.Masked
	for i, m := range ms {
		if strings.IndexFunc(unmaskedText(m.Text), unicode.IsLetter) < 0 {
			t, err := m.Unmask(m.Text)
			res[i] = Outcome{Text: t, Err: err}
			continue
		}
		idx = append(idx, i)
		send = append(send, m)
	}
	if len(send) == 0 {
		return res, nil
	}
	outs, err := Masked(ctx, tr, send, o)
	if err != nil {
		return nil, err
	}
	for k, i := range idx {
		res[i] = outs[k]
	}
	return res, nil
}
