package placeholder

import "strings"

// Role says how a code of a Builder relates to the others.
type Role int

// The roles of codes.
const (
	Standalone Role = iota // <x/>, <ph>…</ph>, <br/>
	Open                   // <g>, <pc>, <b>: the start of an inline element
	Close                  // </g>: the end of the innermost open one
)

// Builder makes a Masked from a sequence of text and codes, for formats
// whose markup is parsed already (XLIFF and TMX inline elements, HTML): a
// code is taken verbatim as one span, and text is masked as Mask does
// (accelerators aside).
type Builder struct {
	o    Options
	m    Masked
	b    strings.Builder
	open []int
}

// NewBuilder starts a Masked. escape (nil: none) turns text into the
// format's markup (XML escaping): Unmask applies it to the translation's
// text and to the placeholders found in text, and codes stay verbatim, so
// that nothing the model writes can become markup.
func NewBuilder(o Options, escape func(string) string) *Builder {
	o.Accelerator = 0
	return &Builder{o: o, m: Masked{escape: escape}}
}

// Text adds text, masking its placeholders.
func (b *Builder) Text(s string) {
	t := Mask(s, b.o)
	forEachSentinel(t.Text, func(text string, idx int) {
		if idx < 0 {
			b.b.WriteString(text)
			return
		}
		sp := t.Spans[idx]
		sp.Pair = -1 // only codes pair
		if b.m.escape != nil {
			sp.Text = b.m.escape(sp.Text)
		}
		b.add(sp)
	})
}

// Code adds a verbatim span.
func (b *Builder) Code(raw string, kind Kind, role Role) {
	sp := Span{Text: raw, Kind: kind, Pair: -1}
	idx := len(b.m.Spans)
	switch role {
	case Open:
		b.open = append(b.open, idx)
	case Close:
		if n := len(b.open); n > 0 {
			sp.Pair = b.open[n-1]
			b.m.Spans[b.open[n-1]].Pair = idx
			b.open = b.open[:n-1]
		}
	}
	b.add(sp)
}

func (b *Builder) add(sp Span) {
	b.b.WriteString(Sentinel(len(b.m.Spans)))
	b.m.Spans = append(b.m.Spans, sp)
}

// Masked returns what was built.
func (b *Builder) Masked() Masked {
	m := b.m
	m.Text = b.b.String()
	return m
}
