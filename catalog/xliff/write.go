package xliff

import (
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/strata-nmt/strata/catalog/placeholder"
	"github.com/strata-nmt/strata/internal/atomicfile"
)

// The states machine output gets: XLIFF 1.2 has needs-review-translation;
// 2.0 has only initial/translated/reviewed/final, so a machine
// translation is "translated" with a subState naming it.
const (
	ReviewState12   = "needs-review-translation"
	ReviewState20   = "translated"
	ReviewSubState0 = "strata:machine-translation"
)

// Masked is the unit's source for translation: text masked, inline
// elements as verbatim codes; Unmask escapes what the model wrote.
func (u *Unit) Masked() placeholder.Masked { return u.masked }

// SetTarget sets the unit's target to inner (XML content, escaped, as
// Masked().Unmask returns it) and marks it for review.
func (u *Unit) SetTarget(inner string) {
	u.newTarget, u.newState = inner, "review"
}

// edit replaces raw[start:end].
type edit struct {
	start, end int64
	text       string
}

// WriteTo writes the document with the targets set by SetTarget.
func (d *Doc) WriteTo(w io.Writer) (int64, error) {
	var edits []edit
	for _, u := range d.Units {
		if u.newState != "" {
			edits = append(edits, d.unitEdits(u)...)
		}
	}
	slices.SortFunc(edits, func(a, b edit) int { return int(a.start - b.start) })
	var n int64
	pos := int64(0)
	for _, e := range edits {
		k, err := w.Write(d.raw[pos:e.start])
		n += int64(k)
		if err != nil {
			return n, err
		}
		k, err = io.WriteString(w, e.text)
		n += int64(k)
		if err != nil {
			return n, err
		}
		pos = e.end
	}
	k, err := w.Write(d.raw[pos:])
	return n + int64(k), err
}

// WriteFile writes the document atomically.
func (d *Doc) WriteFile(path string) error {
	return atomicfile.WriteWith(path, func(w io.Writer) error {
		_, err := d.WriteTo(w)
		return err
	})
}

func (d *Doc) unitEdits(u *Unit) []edit {
	var es []edit
	open := "<target>"
	if d.Version == "1.2" {
		open = `<target state="` + ReviewState12 + `">`
	} else {
		tag := string(d.raw[u.stateTag[0]:u.stateTag[1]])
		tag = setAttr(setAttr(tag, "state", ReviewState20), "subState", ReviewSubState0)
		es = append(es, edit{u.stateTag[0], u.stateTag[1], tag})
	}
	if u.HasTarget {
		open = openTag(string(d.raw[u.targetTag[0]:u.targetTag[1]]))
		if d.Version == "1.2" {
			open = setAttr(open, "state", ReviewState12)
		}
		return append(es, edit{u.target[0], u.target[1], open + u.newTarget + "</target>"})
	}
	ws := u.indent
	if ws == "" {
		ws = " "
	}
	return append(es, edit{u.insertAt, u.insertAt, ws + open + u.newTarget + "</target>"})
}

// openTag turns a self-closing start tag into an opening one.
func openTag(tag string) string {
	if strings.HasSuffix(tag, "/>") {
		return strings.TrimRight(strings.TrimSuffix(tag, "/>"), " \t\r\n") + ">"
	}
	return tag
}

// setAttr sets an attribute of a start tag's text, in place when present
// (keeping the others and their quoting), else before the tag's end.
func setAttr(tag, name, value string) string {
	re := regexp.MustCompile(`(\s` + regexp.QuoteMeta(name) + `\s*=\s*)("[^"]*"|'[^']*')`)
	v := `"` + value + `"`
	if re.MatchString(tag) {
		return re.ReplaceAllString(tag, "${1}"+v)
	}
	end := len(tag) - 1
	if strings.HasSuffix(tag, "/>") {
		end--
	}
	return tag[:end] + " " + name + "=" + v + tag[end:]
}
