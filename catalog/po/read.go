package po

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Reader reads a PO file entry by entry.
type Reader struct {
	name string
	br   *bufio.Reader
	line int    // lines read
	peek string // a line read ahead (with its newline), or ""
	eof  bool
	// Trailer is what follows the last entry (blank lines), set at io.EOF.
	Trailer string
}

// NewReader reads PO text from r; name is used in errors.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{name: name, br: bufio.NewReaderSize(r, 1<<16)}
}

// Error is a syntax error at a line of a PO file.
type Error struct {
	Name string
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg) }

func (r *Reader) errorf(line int, format string, a ...any) error {
	return &Error{Name: r.name, Line: line, Msg: fmt.Sprintf(format, a...)}
}

// readLine returns the next line with its newline ("" at the end).
func (r *Reader) readLine() (string, error) {
	if r.peek != "" {
		l := r.peek
		r.peek = ""
		return l, nil
	}
	if r.eof {
		return "", nil
	}
	l, err := r.br.ReadString('\n')
	if err == io.EOF {
		r.eof = true
		err = nil
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", r.name, err)
	}
	if l != "" {
		r.line++
	}
	return l, nil
}

func (r *Reader) unread(l string) { r.peek = l }

// kind classifies a line: "blank", "comment", "keyword" or "string", and
// whether it is obsolete (#~), with the line's text after the #~ marker.
func classify(l string) (kind string, obsolete bool, text string) {
	t := strings.TrimRight(l, "\r\n")
	if rest, ok := strings.CutPrefix(t, "#~"); ok && !strings.HasPrefix(rest, "|") && !strings.HasPrefix(rest, ",") {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return "comment", true, t
		}
		k, _, _ := classify(rest)
		if k == "keyword" || k == "string" {
			return k, true, rest
		}
		return "comment", true, t
	}
	s := strings.TrimLeft(t, " \t")
	switch {
	case s == "":
		return "blank", false, t
	case s[0] == '#':
		return "comment", false, t
	case s[0] == '"':
		return "string", false, s
	case s[0] >= 'a' && s[0] <= 'z':
		return "keyword", false, s
	}
	return "other", false, t
}

// field is a keyword being read.
type field struct {
	kw    string // msgctxt, msgid, msgid_plural, msgstr, msgstr[N]
	value strings.Builder
	line  int
}

// Next returns the next entry, or io.EOF after the last one.
func (r *Reader) Next() (*Entry, error) {
	var raw, prefix strings.Builder
	e := &Entry{}
	var fields []*field
	started, inStr := false, false
	finish := func() (*Entry, error) {
		if err := r.build(e, fields); err != nil {
			return nil, err
		}
		e.prefix, e.raw = prefix.String(), raw.String()
		return e, nil
	}
	for {
		l, err := r.readLine()
		if err != nil {
			return nil, err
		}
		if l == "" {
			if len(fields) == 0 { // blank lines or comments after the last entry
				r.Trailer = prefix.String() + raw.String()
				return nil, io.EOF
			}
			if !inStr {
				return nil, r.errorf(r.line, "entry of line %d ends without msgstr", fieldLine(fields, e))
			}
			return finish()
		}
		if !utf8.ValidString(l) {
			return nil, r.errorf(r.line, "invalid UTF-8 (convert the catalogue with msgconv --to-code=UTF-8)")
		}
		kind, obs, text := classify(l)
		switch kind {
		case "blank":
			if inStr {
				r.unread(l)
				return finish()
			}
			if !started {
				prefix.WriteString(l)
				continue
			}
		case "comment":
			if inStr {
				r.unread(l)
				return finish()
			}
			if len(fields) > 0 {
				return nil, r.errorf(r.line, "comment inside an entry (after %s)", fields[len(fields)-1].kw)
			}
			e.Comments = append(e.Comments, strings.TrimRight(l, "\r\n"))
		case "keyword":
			kw, rest, _ := strings.Cut(text, " ")
			if !knownKeyword(kw) {
				return nil, r.errorf(r.line, "unknown keyword %q: want msgctxt, msgid, msgid_plural or msgstr", kw)
			}
			if inStr && (kw == "msgctxt" || kw == "msgid") {
				r.unread(l)
				return finish()
			}
			if started && len(fields) > 0 && obs != e.Obsolete {
				return nil, r.errorf(r.line, "entry mixes obsolete (#~) and active lines")
			}
			e.Obsolete = obs
			f := &field{kw: kw, line: r.line}
			if err := r.appendString(f, strings.TrimSpace(rest)); err != nil {
				return nil, err
			}
			fields = append(fields, f)
			inStr = inStr || strings.HasPrefix(kw, "msgstr")
		case "string":
			if len(fields) == 0 {
				return nil, r.errorf(r.line, "string without a keyword before it")
			}
			if err := r.appendString(fields[len(fields)-1], text); err != nil {
				return nil, err
			}
		default:
			return nil, r.errorf(r.line, "unexpected %q: want a comment, a keyword or a quoted string", strings.TrimSpace(text))
		}
		started = true
		raw.WriteString(l)
		if !inStr {
			e.head = raw.String()
		}
	}
}

func fieldLine(fields []*field, e *Entry) int {
	if len(fields) > 0 {
		return fields[0].line
	}
	return e.Line
}

func knownKeyword(kw string) bool {
	switch kw {
	case "msgctxt", "msgid", "msgid_plural", "msgstr":
		return true
	}
	return strings.HasPrefix(kw, "msgstr[") && strings.HasSuffix(kw, "]")
}

func (r *Reader) appendString(f *field, s string) error {
	v, err := unquoteAll(s)
	if err != nil {
		return r.errorf(r.line, "%s: %v", f.kw, err)
	}
	f.value.WriteString(v)
	return nil
}

// build fills e from its keywords, checking their order: [msgctxt] msgid
// [msgid_plural] then msgstr, or msgstr[0..n-1] after msgid_plural.
func (r *Reader) build(e *Entry, fields []*field) error {
	i := 0
	next := func(kw string) *field {
		if i < len(fields) && fields[i].kw == kw {
			i++
			return fields[i-1]
		}
		return nil
	}
	if f := next("msgctxt"); f != nil {
		e.Context, e.HasContext = f.value.String(), true
	}
	id := next("msgid")
	if id == nil {
		return r.errorf(fields[i].line, "%s without msgid before it", fields[i].kw)
	}
	e.ID, e.Line = id.value.String(), id.line
	if f := next("msgid_plural"); f != nil {
		e.IDPlural, e.HasPlural = f.value.String(), true
	}
	if !e.HasPlural {
		f := next("msgstr")
		if f == nil {
			return r.errorf(id.line, "msgid without msgstr (or msgstr[N] without msgid_plural)")
		}
		e.Str = []string{f.value.String()}
	}
	for e.HasPlural && i < len(fields) {
		f := fields[i]
		n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(f.kw, "msgstr["), "]"))
		if err != nil || !strings.HasPrefix(f.kw, "msgstr[") || n != len(e.Str) {
			return r.errorf(f.line, "%s: want msgstr[%d]", f.kw, len(e.Str))
		}
		e.Str = append(e.Str, f.value.String())
		i++
	}
	if e.HasPlural && len(e.Str) == 0 {
		return r.errorf(id.line, "msgid_plural without msgstr[0]")
	}
	if i < len(fields) {
		return r.errorf(fields[i].line, "unexpected %s: want it before msgstr, or a new entry", fields[i].kw)
	}
	return nil
}
