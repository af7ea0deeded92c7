package markup

import (
	"fmt"
	"io"
	"strings"
	"unicode"

	"golang.org/x/net/html"

	"github.com/strata-nmt/strata/catalog/placeholder"
)

// Doc is an HTML document cut into units.
type Doc struct {
	Name string
	// Units are the sentences and the alt and title values.
	Units  []*Unit
	toks   []token
	pieces []piece
	o      placeholder.Options
}

// piece is a part of the output: raw text (from < 0), tokens [from, to)
// (unit < 0), or a unit.
type piece struct {
	raw      string
	unit     int
	from, to int
}

// Unit is one sentence, or one alt or title value.
type Unit struct {
	// Masked is what the model translates: inline elements and
	// placeholders as sentinels, blanks collapsed.
	Masked placeholder.Masked
	// Line is the unit's line in the document.
	Line int
	// Attr names the attribute a unit is the value of ("" for a sentence).
	Attr string

	items []item       // a sentence's content
	codes map[int]item // a sentence's spans that are inline markup
	tok   int          // an attribute's tag
	attr  int          // and its index in the tag's attrs
	value string       // an attribute's value, a sentence's source
	out   string       // the translation, once set
	done  bool
}

// Source is the unit's text as in the document (a sentence with its
// inline markup).
func (u *Unit) Source() string {
	return u.value
}

// Parse reads an HTML document. o says which placeholders inside text are
// protected as well as the markup.
func Parse(src []byte, name string, o placeholder.Options) (*Doc, error) {
	toks, err := tokenize(src, name)
	if err != nil {
		return nil, err
	}
	o.Accelerator = 0
	d := &Doc{Name: name, toks: toks, o: o}
	d.segment()
	return d, nil
}

// escapeText escapes the text of an element.
func escapeText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\u00a0", "&nbsp;").Replace(s)
}

// modelText is a piece of text as the model reads it: entities decoded,
// blanks collapsed (HTML shows a run of blanks as one space).
func modelText(raw string) string {
	return strings.Join(strings.FieldsFunc(html.UnescapeString(raw), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
	}), " ") + trailingBlank(raw)
}

func trailingBlank(raw string) string {
	if raw != "" && strings.ContainsRune(" \t\n\r\f", rune(raw[len(raw)-1])) && strings.TrimSpace(raw) != "" {
		return " "
	}
	return ""
}

// addUnit makes a sentence unit of a run whose pairs are set.
func (d *Doc) addUnit(run []item) {
	b := placeholder.NewBuilder(d.o, escapeText)
	u := &Unit{Line: run[0].line, items: run, codes: map[int]item{}}
	for i, it := range run {
		if !it.code {
			t := modelText(it.raw)
			if i > 0 && run[i-1].code && it.raw != "" && strings.ContainsRune(" \t\n\r\f", rune(it.raw[0])) {
				t = " " + t
			}
			b.Text(t)
			continue
		}
		role := placeholder.Standalone
		switch {
		case it.pair > i:
			role = placeholder.Open
		case it.pair >= 0:
			role = placeholder.Close
		}
		b.Code(d.codeText(it), placeholder.Tag, role)
		u.codes[len(b.Masked().Spans)-1] = it
	}
	u.Masked = b.Masked()
	var src strings.Builder
	for _, it := range run {
		if it.code {
			src.WriteString(d.codeText(it))
		} else {
			src.WriteString(it.raw)
		}
	}
	u.value = src.String()
	d.pieces = append(d.pieces, piece{unit: len(d.Units), from: -1})
	d.Units = append(d.Units, u)
}

// attrUnits makes units of the alt and title values of tag i that hold a
// letter.
func (d *Doc) attrUnits(i int) {
	t := &d.toks[i]
	for k, a := range t.attrs {
		v := modelText(a.value)
		if strings.IndexFunc(v, unicode.IsLetter) < 0 {
			continue
		}
		b := placeholder.NewBuilder(d.o, nil)
		b.Text(strings.TrimSpace(v))
		d.Units = append(d.Units, &Unit{Masked: b.Masked(), Line: t.line, Attr: a.name, tok: i, attr: k, value: a.value})
	}
}

// codeText is the markup of a code: its tokens as they will be written.
func (d *Doc) codeText(it item) string {
	var b strings.Builder
	for j := it.from; j < it.to; j++ {
		b.WriteString(d.toks[j].text())
	}
	return b.String()
}

// WriteTo writes the document: translated units in their translation,
// the others and everything else as they came.
func (d *Doc) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	for _, p := range d.pieces {
		switch {
		case p.unit >= 0:
			u := d.Units[p.unit]
			if u.done {
				b.WriteString(u.out)
				continue
			}
			for _, it := range u.items {
				if it.code {
					b.WriteString(d.codeText(it))
				} else {
					b.WriteString(it.raw)
				}
			}
		case p.from < 0:
			b.WriteString(p.raw)
		default:
			for j := p.from; j < p.to; j++ {
				b.WriteString(d.toks[j].text())
			}
		}
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// Translated is how many units have their translation.
func (d *Doc) Translated() int {
	n := 0
	for _, u := range d.Units {
		if u.done {
			n++
		}
	}
	return n
}

// unitError names a unit.
func unitError(u *Unit, err error) error {
	if u.Attr != "" {
		return fmt.Errorf("%s attribute: %w", u.Attr, err)
	}
	return err
}
