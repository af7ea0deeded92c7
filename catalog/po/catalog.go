package po

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

// Catalog is a whole PO file.
type Catalog struct {
	Name    string
	Entries []*Entry
	Trailer string // what follows the last entry
}

// Parse reads a whole catalogue.
func Parse(r io.Reader, name string) (*Catalog, error) {
	c := &Catalog{Name: name}
	pr := NewReader(r, name)
	for {
		e, err := pr.Next()
		if err == io.EOF {
			c.Trailer = pr.Trailer
			return c, nil
		}
		if err != nil {
			return nil, err
		}
		c.Entries = append(c.Entries, e)
	}
}

// Header returns the header entry, or nil.
func (c *Catalog) Header() *Entry {
	for _, e := range c.Entries {
		if e.IsHeader() {
			return e
		}
	}
	return nil
}

// HeaderField returns a field of the header ("Plural-Forms", "Language").
func (c *Catalog) HeaderField(name string) string {
	h := c.Header()
	if h == nil || len(h.Str) == 0 {
		return ""
	}
	for _, l := range strings.Split(h.Str[0], "\n") {
		k, v, ok := strings.Cut(l, ":")
		if ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

var npluralsRe = regexp.MustCompile(`nplurals\s*=\s*([0-9]+)`)

// NPlurals is the number of plural forms the header's Plural-Forms gives;
// 2 (English's rule, gettext's default) when the header has none.
func (c *Catalog) NPlurals() (int, error) {
	pf := c.HeaderField("Plural-Forms")
	if pf == "" {
		return 2, nil
	}
	m := npluralsRe.FindStringSubmatch(pf)
	if m == nil {
		return 0, fmt.Errorf("%s: Plural-Forms %q has no nplurals=N", c.Name, pf)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 || n > 16 {
		return 0, fmt.Errorf("%s: Plural-Forms %q: nplurals %s is not between 1 and 16", c.Name, pf, m[1])
	}
	return n, nil
}

// WriteTo writes the catalogue: unchanged entries as read, changed ones in
// gettext's layout.
func (c *Catalog) WriteTo(w io.Writer) (int64, error) {
	var n int64
	for _, e := range c.Entries {
		k, err := io.WriteString(w, e.prefix+e.text())
		n += int64(k)
		if err != nil {
			return n, err
		}
	}
	k, err := io.WriteString(w, c.Trailer)
	return n + int64(k), err
}

// WriteFile writes the catalogue atomically.
func (c *Catalog) WriteFile(path string) error {
	return atomicfile.WriteWith(path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}

// text is the entry as it goes to the file.
func (e *Entry) text() string {
	if !e.dirty && e.raw != "" {
		return e.raw
	}
	var b strings.Builder
	for _, c := range e.Comments {
		b.WriteString(c + "\n")
	}
	pre := ""
	if e.Obsolete {
		pre = "#~ "
	}
	if e.head != "" {
		b.WriteString(keywordLines(e.head))
	} else {
		if e.HasContext {
			b.WriteString(formatField(pre, "msgctxt", e.Context))
		}
		b.WriteString(formatField(pre, "msgid", e.ID))
		if e.HasPlural {
			b.WriteString(formatField(pre, "msgid_plural", e.IDPlural))
		}
	}
	if !e.HasPlural {
		b.WriteString(formatField(pre, "msgstr", first(e.Str)))
	}
	for i, s := range e.Str {
		if e.HasPlural {
			b.WriteString(formatField(pre, "msgstr["+strconv.Itoa(i)+"]", s))
		}
	}
	return b.String()
}

// keywordLines drops the comment lines of a raw head, leaving msgctxt,
// msgid and msgid_plural as read.
func keywordLines(head string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(head, "\n") {
		if k, _, _ := classify(l); k == "keyword" || k == "string" {
			b.WriteString(l)
		}
	}
	return b.String()
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}
