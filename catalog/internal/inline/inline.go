// Package inline reads the content of an XLIFF or TMX segment element
// (<source>, <target>, <seg>) with its inline elements: as plain text for
// a corpus, and as text and verbatim codes for translation.
package inline

import (
	"encoding/xml"
	"fmt"
	"strconv"

	"github.com/strata-nmt/strata/catalog/placeholder"
)

// How says what an inline element is.
type How int

// The kinds of inline elements.
const (
	Wrap   How = iota // text inside is translatable: g, mrk, pc, hi
	Native            // content is the original format's code: ph, bpt, ept, it, ut (1.2, TMX)
	Empty             // no content: x, bx, ex, sc, ec, sm, em, ph (2.0)
	Char              // 2.0's <cp hex="..."/>: one character
)

// Content is a segment read.
type Content struct {
	// Text is the content with inline codes dropped; Kept has the native
	// code text of Native elements kept in place (e.g. "<b>" in a TMX made
	// from HTML).
	Text, Kept string
	// Masked is the content for translation (when raw bytes were given).
	Masked placeholder.Masked
	// Inline says whether the content has inline elements.
	Inline bool
	// Start and End delimit the inner content in the input.
	Start, End int64
}

// Read reads the content of the element that d has just started, up to and
// including its end tag. kinds classifies inline elements by local name
// (unknown ones are an error); raw, when not nil, is the whole input, from
// which codes are taken verbatim; o configures masking.
func Read(d *xml.Decoder, raw []byte, kinds map[string]How, o placeholder.Options) (*Content, error) {
	c := &Content{Start: d.InputOffset()}
	var text, kept []byte
	var b *placeholder.Builder
	if raw != nil {
		b = placeholder.NewBuilder(o, escapeText)
	}
	depth := 0
	var nativeFrom int64 = -1
	nativeDepth := 0
	for {
		before := d.InputOffset()
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.CharData:
			if nativeFrom >= 0 {
				kept = append(kept, t...)
				continue
			}
			text, kept = append(text, t...), append(kept, t...)
			if b != nil {
				b.Text(string(t))
			}
		case xml.StartElement:
			if nativeFrom >= 0 {
				nativeDepth++
				continue
			}
			c.Inline = true
			how, ok := kinds[t.Name.Local]
			if !ok {
				return nil, fmt.Errorf("unknown inline element <%s>", t.Name.Local)
			}
			switch how {
			case Wrap:
				depth++
				if b != nil {
					b.Code(string(raw[before:d.InputOffset()]), placeholder.Tag, placeholder.Open)
				}
			case Native, Empty:
				nativeFrom, nativeDepth = before, 0
			case Char:
				r, err := strconv.ParseUint(attr(t, "hex"), 16, 32)
				if err != nil {
					return nil, fmt.Errorf("<cp hex=%q>: want a hexadecimal code point", attr(t, "hex"))
				}
				text, kept = append(text, string(rune(r))...), append(kept, string(rune(r))...)
				nativeFrom, nativeDepth = before, 0
			}
		case xml.EndElement:
			switch {
			case nativeFrom >= 0 && nativeDepth > 0:
				nativeDepth--
			case nativeFrom >= 0:
				if b != nil {
					b.Code(string(raw[nativeFrom:d.InputOffset()]), placeholder.Tag, placeholder.Standalone)
				}
				nativeFrom = -1
			case depth > 0:
				depth--
				if b != nil {
					b.Code(string(raw[before:d.InputOffset()]), placeholder.Tag, placeholder.Close)
				}
			default:
				c.End = before
				c.Text, c.Kept = string(text), string(kept)
				if b != nil {
					c.Masked = b.Masked()
				}
				return c, nil
			}
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

// escapeText escapes text for element content.
func escapeText(s string) string {
	var out []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '&':
			out = append(out, "&amp;"...)
		case '<':
			out = append(out, "&lt;"...)
		case '>':
			out = append(out, "&gt;"...)
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}

// Escape escapes text for element content.
func Escape(s string) string { return escapeText(s) }
