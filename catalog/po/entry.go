package po

import (
	"slices"
	"strings"
)

// Entry is one message of a catalogue.
type Entry struct {
	// Line is the line of the entry's msgid in the file (1-based).
	Line int
	// Comments are the comment lines before the keywords, as written
	// ("# ...", "#. ...", "#: ...", "#, ...", "#| ...").
	Comments []string
	// Context is msgctxt's value; HasContext says whether msgctxt is present
	// (an empty context differs from none).
	Context    string
	HasContext bool
	// ID and IDPlural are msgid and msgid_plural; HasPlural says whether
	// the entry has plural forms (then Str holds msgstr[0], msgstr[1], ...).
	ID, IDPlural string
	HasPlural    bool
	// Str holds msgstr, or msgstr[i] for plural entries.
	Str []string
	// Obsolete marks a #~ entry: kept in the file, not used by msgfmt.
	Obsolete bool

	prefix string // blank lines before the entry
	head   string // comments, msgctxt, msgid and msgid_plural lines as read
	raw    string // the whole entry as read (prefix excluded)
	dirty  bool
}

// IsHeader says whether the entry is the catalogue header (msgid "" with no
// context).
func (e *Entry) IsHeader() bool { return e.ID == "" && !e.HasContext && !e.Obsolete }

// Flags returns the flags of the "#," comments (fuzzy, c-format, ...).
func (e *Entry) Flags() []string {
	var fl []string
	for _, c := range e.Comments {
		if rest, ok := strings.CutPrefix(c, "#,"); ok {
			for _, f := range strings.Split(rest, ",") {
				if f = strings.TrimSpace(f); f != "" {
					fl = append(fl, f)
				}
			}
		}
	}
	return fl
}

// HasFlag says whether the entry has a flag.
func (e *Entry) HasFlag(f string) bool { return slices.Contains(e.Flags(), f) }

// Fuzzy says whether the entry is marked fuzzy.
func (e *Entry) Fuzzy() bool { return e.HasFlag("fuzzy") }

// Translated says whether every msgstr is filled.
func (e *Entry) Translated() bool {
	for _, s := range e.Str {
		if s == "" {
			return false
		}
	}
	return len(e.Str) > 0
}

// SetFlag adds (on) or removes a flag, keeping the others in their order;
// fuzzy goes first, as msgmerge writes it.
func (e *Entry) SetFlag(flag string, on bool) {
	fl := e.Flags()
	if slices.Contains(fl, flag) == on {
		return
	}
	if on {
		if flag == "fuzzy" {
			fl = append([]string{flag}, fl...)
		} else {
			fl = append(fl, flag)
		}
	} else {
		fl = slices.DeleteFunc(fl, func(f string) bool { return f == flag })
	}
	var cs []string
	at := -1
	for _, c := range e.Comments {
		if strings.HasPrefix(c, "#,") {
			if at < 0 {
				at = len(cs)
			}
			continue
		}
		cs = append(cs, c)
	}
	if at < 0 { // a new flag line goes before the previous-msgid lines
		at = len(cs)
		for i, c := range cs {
			if strings.HasPrefix(c, "#|") || strings.HasPrefix(c, "#~|") {
				at = i
				break
			}
		}
	}
	if len(fl) > 0 {
		// obsolete entries too: gettext writes "#, fuzzy" before "#~ msgid"
		cs = slices.Insert(cs, at, "#, "+strings.Join(fl, ", "))
	}
	e.Comments = cs
	e.dirty = true
}

// SetStr replaces the translation (one string, or one per plural form).
func (e *Entry) SetStr(str []string) {
	e.Str = slices.Clone(str)
	e.dirty = true
}
