package markup

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// attrRef is where an alt or title value lies in a tag's raw bytes.
type attrRef struct {
	name       string
	start, end int // the value with its quotes, if any
	quote      byte
	value      string // unescaped
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// findAttrs scans a start tag as the HTML tokenizer does and returns its
// alt and title values (the first of each name: the tokenizer's tree
// builder drops repeats).
func findAttrs(raw string) []attrRef {
	var out []attrRef
	seen := map[string]bool{}
	i := 1
	for i < len(raw) && !isSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' {
		i++
	}
	for i < len(raw) {
		for i < len(raw) && (isSpace(raw[i]) || raw[i] == '/') {
			i++
		}
		if i >= len(raw) || raw[i] == '>' {
			break
		}
		ns := i
		i++ // a name may start with '='
		for i < len(raw) && !isSpace(raw[i]) && raw[i] != '/' && raw[i] != '>' && raw[i] != '=' {
			i++
		}
		name := strings.ToLower(raw[ns:i])
		for i < len(raw) && isSpace(raw[i]) {
			i++
		}
		if i >= len(raw) || raw[i] != '=' {
			continue
		}
		i++
		for i < len(raw) && isSpace(raw[i]) {
			i++
		}
		vs := i
		var q byte
		var val string
		if i < len(raw) && (raw[i] == '"' || raw[i] == '\'') {
			q = raw[i]
			j := strings.IndexByte(raw[i+1:], q)
			if j < 0 {
				break
			}
			val = raw[i+1 : i+1+j]
			i += j + 2
		} else {
			for i < len(raw) && !isSpace(raw[i]) && raw[i] != '>' {
				i++
			}
			val = raw[vs:i]
		}
		if (name == "alt" || name == "title") && !seen[name] {
			out = append(out, attrRef{name: name, start: vs, end: i, quote: q, value: html.UnescapeString(val)})
		}
		seen[name] = true
	}
	return out
}

// escapeAttr escapes a double-quoted attribute value.
func escapeAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// setAttr returns raw with the value of a replaced, or raw and false when
// the result would not read back as the same tag with only that value
// changed.
func setAttr(raw string, a attrRef, value string) (string, bool) {
	out := raw[:a.start] + `"` + escapeAttr(value) + `"` + raw[a.end:]
	if !sameTagBut(raw, out, a.name, value) {
		return raw, false
	}
	return out, true
}

// sameTagBut says whether tag b reads as tag a with attribute name set to
// value.
func sameTagBut(a, b, name, value string) bool {
	ta, oka := readTag(a)
	tb, okb := readTag(b)
	if !oka || !okb || ta.Data != tb.Data || len(ta.Attr) != len(tb.Attr) {
		return false
	}
	done := false
	for i := range ta.Attr {
		x, y := ta.Attr[i], tb.Attr[i]
		if x.Key != y.Key || x.Namespace != y.Namespace {
			return false
		}
		if x.Key == name && !done {
			if y.Val != value {
				return false
			}
			done = true
			continue
		}
		if x.Val != y.Val {
			return false
		}
	}
	return done
}

func readTag(s string) (html.Token, bool) {
	z := html.NewTokenizer(bytes.NewReader([]byte(s)))
	typ := z.Next()
	if typ != html.StartTagToken && typ != html.SelfClosingTagToken {
		return html.Token{}, false
	}
	t := z.Token()
	if z.Next() != html.ErrorToken {
		return html.Token{}, false
	}
	return t, true
}
