package xliff

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/strata-nmt/strata/catalog/internal/inline"
	"github.com/strata-nmt/strata/catalog/placeholder"
)

// Unit is one source/target pair: a 1.2 <trans-unit> or a 2.0 <segment>.
type Unit struct {
	ID   string // trans-unit id, or unit id (with the segment's, if any, after a slash)
	Line int    // line of the <source> element
	// SrcLang and TgtLang come from the <file> element (1.2) or the root (2.0).
	SrcLang, TgtLang string
	// Source and Target are the texts, inline codes dropped; Kept have the
	// native code text of 1.2's <ph>/<bpt>/<ept>/<it> in place.
	Source, Target         string
	SourceKept, TargetKept string
	HasTarget              bool
	// State is the target's state (1.2 target@state, 2.0 segment@state);
	// "" when absent.
	State string
	// Translate is false for translate="no" units.
	Translate bool

	masked    placeholder.Masked // the source for translation (Parse only)
	inline    bool
	insertAt  int64    // 1.2: after </source>, where a new <target> goes
	target    [2]int64 // the whole <target> element, when present
	targetTag [2]int64 // its start tag
	stateTag  [2]int64 // the start tag that carries the state attribute
	indent    string   // whitespace before <source>, for a new <target>
	newTarget string   // set by SetTarget
	newState  string
}

// Doc is a whole XLIFF document.
type Doc struct {
	Name    string
	Version string // "1.2" or "2.0" (1.0, 1.1 read as 1.2)
	Units   []*Unit
	raw     []byte
}

// Error is a problem at a line of a document.
type Error struct {
	Name string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg) }

// inline elements of each version
var kinds12 = map[string]inline.How{"g": inline.Wrap, "mrk": inline.Wrap, "x": inline.Empty, "bx": inline.Empty, "ex": inline.Empty,
	"ph": inline.Native, "bpt": inline.Native, "ept": inline.Native, "it": inline.Native}
var kinds20 = map[string]inline.How{"pc": inline.Wrap, "mrk": inline.Wrap, "ph": inline.Empty, "sc": inline.Empty, "ec": inline.Empty,
	"sm": inline.Empty, "em": inline.Empty, "cp": inline.Char}

// Parse reads a whole document, keeping its bytes for writing back.
func Parse(r io.Reader, name string, o placeholder.Options) (*Doc, error) {
	raw, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d := &Doc{Name: name, raw: raw}
	d.Version, err = Read(bytes.NewReader(raw), name, raw, o, func(u *Unit) error {
		d.Units = append(d.Units, u)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// reader walks a document.
type reader struct {
	name    string
	d       *xml.Decoder
	raw     []byte
	o       placeholder.Options
	version string
	src     string
	tgt     string
}

// Read streams the units of a document to fn and returns its version; raw
// (the whole input, or nil when streaming a corpus) is needed only to write
// translations back.
func Read(r io.Reader, name string, raw []byte, o placeholder.Options, fn func(*Unit) error) (string, error) {
	rd := &reader{name: name, d: xml.NewDecoder(r), raw: raw, o: o}
	rd.d.Strict = true
	err := rd.walk(fn)
	var se *xml.SyntaxError
	var e *Error
	switch {
	case errors.As(err, &se):
		return "", &Error{Name: name, Line: se.Line, Msg: "XML: " + se.Msg}
	case err != nil && !errors.As(err, &e):
		line, _ := rd.d.InputPos() // the decoder's other errors (an XML declaration it refuses) carry no line
		return "", &Error{Name: name, Line: line, Msg: err.Error()}
	}
	return rd.version, err
}

func (rd *reader) errorf(format string, a ...any) error {
	line, _ := rd.d.InputPos()
	return &Error{Name: rd.name, Line: line, Msg: fmt.Sprintf(format, a...)}
}

func (rd *reader) walk(fn func(*Unit) error) error {
	var unitID string
	unitTranslate := true
	var cur *Unit
	var lastWS string
	for {
		before := rd.d.InputOffset()
		tok, err := rd.d.Token()
		if err == io.EOF {
			if rd.version == "" {
				return &Error{Name: rd.name, Line: 1, Msg: "no <xliff> element: not an XLIFF document"}
			}
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.CharData:
			lastWS = ""
			if len(bytes.TrimSpace(t)) == 0 {
				lastWS = string(t)
			}
		case xml.StartElement:
			if !xliffSpace(t.Name.Space) || (cur == nil && (t.Name.Local == "source" || t.Name.Local == "target")) || t.Name.Local == "alt-trans" || t.Name.Local == "ignorable" {
				// other vocabularies (2.0 modules, 1.2 alt-trans
				// suggestions) hold sources and targets that are not
				// the document's own
				if err := rd.d.Skip(); err != nil {
					return err
				}
				continue
			}
			switch t.Name.Local {
			case "xliff":
				if err := rd.root(t); err != nil {
					return err
				}
			case "file":
				if rd.version == "1.2" {
					rd.src, rd.tgt = attr(t, "source-language"), attr(t, "target-language")
				}
			case "unit":
				unitID, unitTranslate = attr(t, "id"), attr(t, "translate") != "no"
			case "trans-unit", "segment":
				line, _ := rd.d.InputPos()
				cur = &Unit{ID: attr(t, "id"), Line: line, SrcLang: rd.src, TgtLang: rd.tgt, Translate: attr(t, "translate") != "no",
					stateTag: [2]int64{before, rd.d.InputOffset()}, target: [2]int64{-1, -1}}
				if t.Name.Local == "segment" {
					cur.ID = joinID(unitID, cur.ID)
					cur.Translate = unitTranslate
					cur.State = attr(t, "state")
				}
			case "source", "target":
				if err := rd.segment(cur, t, before, lastWS); err != nil {
					return err
				}
			}
			lastWS = ""
		case xml.EndElement:
			if (t.Name.Local == "trans-unit" || t.Name.Local == "segment") && cur != nil {
				if cur.insertAt == 0 {
					return rd.errorf("<%s> without <source>", t.Name.Local)
				}
				if err := fn(cur); err != nil {
					return err
				}
				cur = nil
			}
			lastWS = ""
		}
	}
}

// xliffSpace says whether a namespace is XLIFF's (or none, as some tools
// write).
func xliffSpace(ns string) bool {
	return ns == "" || strings.HasPrefix(ns, "urn:oasis:names:tc:xliff:document:")
}

func joinID(unit, seg string) string {
	if seg == "" {
		return unit
	}
	return unit + "/" + seg
}

// root checks the <xliff> element and reads its version and languages.
func (rd *reader) root(t xml.StartElement) error {
	v := attr(t, "version")
	switch {
	case v == "1.0" || v == "1.1" || v == "1.2":
		rd.version = "1.2"
	case strings.HasPrefix(v, "2."):
		rd.version = "2.0"
		rd.src, rd.tgt = attr(t, "srcLang"), attr(t, "trgLang")
	default:
		return rd.errorf("<xliff version=%q>: want 1.2 or 2.x", v)
	}
	return nil
}

// segment reads a <source> or <target> of the current unit.
func (rd *reader) segment(u *Unit, t xml.StartElement, start int64, ws string) error {
	kinds := kinds12
	if rd.version == "2.0" {
		kinds = kinds20
	}
	c, err := inline.Read(rd.d, rd.raw, kinds, rd.o)
	if err != nil {
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			return err
		}
		return rd.errorf("<%s>: %v", t.Name.Local, err)
	}
	if t.Name.Local == "source" {
		u.Source, u.SourceKept, u.masked, u.inline = c.Text, c.Kept, c.Masked, c.Inline
		u.insertAt, u.indent = rd.d.InputOffset(), ws
		return nil
	}
	u.Target, u.TargetKept, u.HasTarget = c.Text, c.Kept, true
	u.target = [2]int64{start, rd.d.InputOffset()}
	u.targetTag = [2]int64{start, c.Start}
	if rd.version == "1.2" {
		u.State = attr(t, "state")
		u.stateTag = [2]int64{start, c.Start}
	}
	return nil
}

func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}
