package markup

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/strata-nmt/strata/catalog/placeholder"
)

// SetTranslations takes the model's output for each unit's Masked.Text,
// in the order of Units ("" for a unit not translated), and returns why
// each refused one was refused (nil for one taken or not translated). A
// refused unit is written in its source language.
func (d *Doc) SetTranslations(outs []string) []error {
	errs := make([]error, len(d.Units))
	attrs := map[int]map[int]string{} // tag → attr index → value
	for i, u := range d.Units {
		if u.Attr == "" || outs[i] == "" {
			continue
		}
		t, err := unmask(u.Masked, outs[i])
		if err != nil {
			errs[i] = unitError(u, err)
			continue
		}
		if attrs[u.tok] == nil {
			attrs[u.tok] = map[int]string{}
		}
		attrs[u.tok][u.attr] = t
	}
	for tok, vals := range attrs {
		d.setAttrs(tok, vals, errs)
	}
	for i, u := range d.Units {
		if u.Attr != "" || outs[i] == "" {
			continue
		}
		if err := d.setSentence(u, outs[i]); err != nil {
			errs[i] = err
		}
	}
	return errs
}

// unmask restores a translation's spans and refuses an empty one.
func unmask(m placeholder.Masked, out string) (string, error) {
	t, err := m.Unmask(strings.TrimSpace(out))
	if err == nil && strings.TrimSpace(t) == "" {
		err = errors.New("empty translation")
	}
	return t, err
}

// setAttrs writes the translated values into a tag, last first so that
// the offsets of the others hold.
func (d *Doc) setAttrs(tok int, vals map[int]string, errs []error) {
	t := &d.toks[tok]
	out := t.raw
	for k := len(t.attrs) - 1; k >= 0; k-- {
		v, ok := vals[k]
		if !ok {
			continue
		}
		next, ok := setAttr(out, t.attrs[k], v)
		for i, u := range d.Units {
			if u.Attr != "" && u.tok == tok && u.attr == k {
				if ok {
					u.out, u.done = v, true
				} else {
					errs[i] = unitError(u, errors.New("the tag would not read back the same"))
				}
			}
		}
		out = next
	}
	t.out = out
}

// setSentence restores a sentence's markup (with any translated alt and
// title values in it) and checks that every element keeps its parent.
func (d *Doc) setSentence(u *Unit, out string) error {
	m := u.Masked
	m.Spans = slices.Clone(m.Spans)
	for k, it := range u.codes {
		m.Spans[k].Text = d.codeText(it)
	}
	t, err := unmask(m, out)
	if err != nil {
		return err
	}
	if d.hasStray(u) {
		if !slices.Equal(shape(u.Masked.Text, u.codes), shape(strings.TrimSpace(out), u.codes)) {
			return errors.New("inline markup moved in a sentence with unclosed or stray tags")
		}
	} else if err := sameNesting(m.Spans, u.codes, sentinelOrder(strings.TrimSpace(out))); err != nil {
		return err
	}
	u.out, u.done = t, true
	return nil
}

var sentinelRe = regexp.MustCompile(`\{[1-9][0-9]{0,5}\}`)

// sentinelOrder lists the span indices of the sentinels in s, in order.
func sentinelOrder(s string) []int {
	var out []int
	for _, m := range sentinelRe.FindAllString(s, -1) {
		n, _ := strconv.Atoi(m[1 : len(m)-1])
		out = append(out, n-1)
	}
	return out
}

// sameNesting says whether the codes, in the order a translation has them,
// nest as in the source: pairs well nested, and each code inside the same
// pair as before.
func sameNesting(spans []placeholder.Span, codes map[int]item, order []int) error {
	src := make([]int, len(spans))
	for i := range src {
		src[i] = i
	}
	want, _ := parents(spans, codes, src)
	got, ok := parents(spans, codes, order)
	if !ok || !slices.Equal(want, got) {
		return errors.New("inline markup nested differently from the source")
	}
	return nil
}

// shape is the sequence of a masked text's codes, with -1 for each run of
// text between them. A tag left open or closed out of turn reaches
// outside its sentence, and the parser rebuilds such elements wherever
// text follows; so with one, the codes must keep their order and the text
// its places among them.
func shape(s string, codes map[int]item) []int {
	var out []int
	text := func() {
		if len(out) == 0 || out[len(out)-1] != -1 {
			out = append(out, -1)
		}
	}
	last := 0
	for _, m := range sentinelRe.FindAllStringIndex(s, -1) {
		if m[0] > last {
			text()
		}
		last = m[1]
		n, _ := strconv.Atoi(s[m[0]+1 : m[1]-1])
		if _, ok := codes[n-1]; ok {
			out = append(out, n-1)
		} else {
			text()
		}
	}
	if last < len(s) {
		text()
	}
	return out
}

// hasStray says whether a sentence has an unpaired tag that is not void.
func (d *Doc) hasStray(u *Unit) bool {
	for _, it := range u.codes {
		t := &d.toks[it.from]
		if it.pair < 0 && it.to-it.from == 1 && !void[t.name] {
			return true
		}
	}
	return false
}

// parents gives each code the pair that encloses it (-1: none) in the
// given order; false when pairs interleave.
func parents(spans []placeholder.Span, codes map[int]item, order []int) ([]int, bool) {
	parent := make([]int, len(spans))
	var stack []int
	for _, k := range order {
		if _, ok := codes[k]; !ok || k >= len(spans) {
			continue
		}
		p := -1
		if n := len(stack); n > 0 {
			p = stack[n-1]
		}
		sp := spans[k]
		switch {
		case sp.Pair > k:
			parent[k] = p
			stack = append(stack, k)
		case sp.Pair >= 0:
			if p != sp.Pair {
				return nil, false
			}
			stack = stack[:len(stack)-1]
			parent[k] = parent[sp.Pair]
		default:
			parent[k] = p
		}
	}
	return parent, len(stack) == 0
}
