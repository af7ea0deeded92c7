// Package tmx reads TMX 1.4 translation memories (<tu>, <tuv xml:lang>,
// <seg>, inline elements) as a stream of units, and adds machine
// translations to them for review. Writing splices the new <tuv> elements
// into the bytes read, so everything else stays byte for byte.
package tmx

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/strata-nmt/strata/catalog/internal/inline"
	"github.com/strata-nmt/strata/catalog/placeholder"
	"github.com/strata-nmt/strata/internal/atomicfile"
)

// Variant is one language's text of a unit.
type Variant struct {
	Lang string
	// Text has inline codes dropped; Kept has the native code text of
	// <bpt>/<ept>/<it>/<ph>/<ut> in place.
	Text, Kept string
	masked     placeholder.Masked
}

// Masked is the variant's text for translation.
func (v *Variant) Masked() placeholder.Masked { return v.masked }

// Unit is a <tu>.
type Unit struct {
	ID       string // tuid
	Line     int
	Variants []*Variant
	end      int64  // where a new <tuv> goes: after the last </tuv>
	indent   string // whitespace before the last <tuv>
	added    []string
}

// Variant returns the unit's text in a language ("de" matches "de-DE" and
// "DE"), or nil.
func (u *Unit) Variant(lang string) *Variant {
	for _, v := range u.Variants {
		if SameLanguage(v.Lang, lang) {
			return v
		}
	}
	return nil
}

// SameLanguage compares language tags by their primary subtag, ignoring
// case: a corpus pair "en-de" reads "en-US" and "de-DE" variants.
func SameLanguage(tag, lang string) bool {
	p, _, _ := strings.Cut(strings.ReplaceAll(tag, "_", "-"), "-")
	q, _, _ := strings.Cut(strings.ReplaceAll(lang, "_", "-"), "-")
	return strings.EqualFold(p, q)
}

// Error is a problem at a line of a memory.
type Error struct {
	Name string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg) }

var kinds = map[string]inline.How{"hi": inline.Wrap, "bpt": inline.Native, "ept": inline.Native, "it": inline.Native,
	"ph": inline.Native, "ut": inline.Native}

// Read streams the units of a memory to fn. raw (the whole input, or nil)
// is needed only to add translations.
func Read(r io.Reader, name string, raw []byte, o placeholder.Options, fn func(*Unit) error) error {
	d := xml.NewDecoder(r)
	d.Strict = true
	err := walk(d, name, raw, o, fn)
	var se *xml.SyntaxError
	var e *Error
	switch {
	case errors.As(err, &se):
		return &Error{Name: name, Line: se.Line, Msg: "XML: " + se.Msg}
	case err != nil && !errors.As(err, &e):
		line, _ := d.InputPos() // the decoder's other errors (an XML declaration it refuses) carry no line
		return &Error{Name: name, Line: line, Msg: err.Error()}
	}
	return err
}

func walk(d *xml.Decoder, name string, raw []byte, o placeholder.Options, fn func(*Unit) error) error {
	errorf := func(format string, a ...any) error {
		line, _ := d.InputPos()
		return &Error{Name: name, Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	seenRoot := false
	var tu *Unit
	var tuv *Variant
	ws := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if !seenRoot {
				return &Error{Name: name, Line: 1, Msg: "no <tmx> element: not a TMX document"}
			}
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.CharData:
			if len(bytes.TrimSpace(t)) == 0 {
				ws = string(t)
			}
		case xml.StartElement:
			switch t.Name.Local {
			case "tmx":
				seenRoot = true
			case "tu":
				line, _ := d.InputPos()
				tu = &Unit{ID: attr(t, "tuid"), Line: line}
			case "tuv":
				if tu == nil {
					return errorf("<tuv> outside a <tu>")
				}
				lang := attr(t, "lang") // xml:lang (TMX 1.4) or lang (1.1)
				if lang == "" {
					return errorf("<tuv> without xml:lang")
				}
				tuv = &Variant{Lang: lang}
				tu.indent = ws
			case "seg":
				if tuv == nil {
					return errorf("<seg> outside a <tuv>")
				}
				c, err := inline.Read(d, raw, kinds, o)
				if err != nil {
					var se *xml.SyntaxError
					if errors.As(err, &se) {
						return err
					}
					return errorf("<seg>: %v", err)
				}
				tuv.Text, tuv.Kept, tuv.masked = c.Text, c.Kept, c.Masked
			}
			ws = ""
		case xml.EndElement:
			switch t.Name.Local {
			case "tuv":
				if tuv != nil {
					tu.Variants = append(tu.Variants, tuv)
					tu.end = d.InputOffset()
					tuv = nil
				}
			case "tu":
				if tu != nil {
					if err := fn(tu); err != nil {
						return err
					}
					tu = nil
				}
			}
			ws = ""
		}
	}
}

func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// Memory is a whole TMX document.
type Memory struct {
	Name  string
	Units []*Unit
	raw   []byte
}

// Parse reads a whole memory, keeping its bytes for writing back.
func Parse(r io.Reader, name string, o placeholder.Options) (*Memory, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m := &Memory{Name: name, raw: raw}
	err = Read(bytes.NewReader(raw), name, raw, o, func(u *Unit) error {
		m.Units = append(m.Units, u)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// ReviewProp is the property a machine-translated variant carries: TMX has
// no state attribute, and x- property types are the user-defined ones.
const ReviewProp = `<prop type="x-strata-state">needs-review-translation</prop>`

// AddVariant adds a machine-translated variant in lang with seg content
// inner (escaped XML, as Masked().Unmask returns it).
func (u *Unit) AddVariant(lang, inner string) {
	u.added = append(u.added, `<tuv xml:lang="`+escapeAttr(lang)+`">`+ReviewProp+`<seg>`+inner+`</seg></tuv>`)
}

func escapeAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", `"`, "&quot;").Replace(s)
}

// WriteTo writes the memory with the variants added.
func (m *Memory) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	pos := int64(0)
	units := slices.Clone(m.Units)
	for _, u := range units {
		if len(u.added) == 0 || u.end == 0 {
			continue
		}
		buf.Write(m.raw[pos:u.end])
		for _, a := range u.added {
			ws := u.indent
			if ws == "" {
				ws = " "
			}
			buf.WriteString(ws + a)
		}
		pos = u.end
	}
	buf.Write(m.raw[pos:])
	return buf.WriteTo(w)
}

// WriteFile writes the memory atomically.
func (m *Memory) WriteFile(path string) error {
	return atomicfile.WriteWith(path, func(w io.Writer) error {
		_, err := m.WriteTo(w)
		return err
	})
}
