package markup

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// token is one token of the input, its bytes kept as they came.
type token struct {
	typ  html.TokenType
	raw  string
	name string // tag name, lower case
	line int
	// out replaces raw once an alt or title attribute is translated.
	out string
	// attrs are the alt and title values in raw.
	attrs []attrRef
	// noTranslate: the element says translate="no".
	noTranslate bool
}

func (t *token) text() string {
	if t.out != "" {
		return t.out
	}
	return t.raw
}

func (t *token) isStart() bool { return t.typ == html.StartTagToken }

func (t *token) isTag() bool {
	return t.typ == html.StartTagToken || t.typ == html.EndTagToken || t.typ == html.SelfClosingTagToken
}

// tokenize reads src into tokens whose raw bytes, concatenated, are src.
func tokenize(src []byte, name string) ([]token, error) {
	z := html.NewTokenizer(bytes.NewReader(src))
	var toks []token
	line, n := 1, 0
	for {
		typ := z.Next()
		if typ == html.ErrorToken {
			if errors.Is(z.Err(), io.EOF) {
				if n < len(src) { // a tag cut by the end, which a browser drops: kept as it is
					toks = append(toks, token{typ: html.ErrorToken, raw: string(src[n:]), line: line})
				}
				return toks, nil
			}
			return nil, fmt.Errorf("%s:%d: %w", name, line, z.Err())
		}
		t := token{typ: typ, raw: string(z.Raw()), line: line}
		line += strings.Count(t.raw, "\n")
		n += len(t.raw)
		if t.isTag() {
			n, hasAttr := z.TagName()
			t.name = string(n)
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if string(k) == "translate" && strings.EqualFold(strings.TrimSpace(string(v)), "no") {
					t.noTranslate = true
				}
			}
			if typ != html.EndTagToken {
				t.attrs = findAttrs(t.raw)
			}
		}
		toks = append(toks, t)
	}
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

var (
	// inline elements travel inside a sentence as a pair of codes
	inline = set("a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
		"kbd", "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "tt", "u", "var")
	// inline void elements are one code
	inlineVoid = set("br", "wbr", "img")
	// the tokenizer gives these elements' content as one text token, which
	// is code or data, not prose (title excepted: it is translated)
	rawText = set("script", "style", "textarea", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext")
	// the content of these elements is kept as it is
	keep = set("pre", "svg", "math", "template", "script", "style", "textarea")
	// void elements have no end tag
	void = set("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr")
)

// skipsContent says whether a start tag begins content kept as it is.
func skipsContent(t *token) bool {
	return t.typ == html.StartTagToken && !void[t.name] && (keep[t.name] || t.noTranslate)
}

// matchingEnd returns the index of the end tag that closes the element
// opened at toks[i], or -1.
func matchingEnd(toks []token, i int) int {
	depth := 0
	for j := i; j < len(toks); j++ {
		t := &toks[j]
		if t.name != toks[i].name {
			continue
		}
		switch t.typ {
		case html.StartTagToken:
			depth++
		case html.EndTagToken:
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}
