package placeholder

import (
	"regexp"
	"strings"
)

// Kind says what a protected span is.
type Kind string

// The kinds of protected spans.
const (
	Printf Kind = "printf" // %s, %1$d, %.250s, %(name)s, %%, %<PRIuMAX>
	Brace  Kind = "brace"  // {0}, {name}, ICU {n, plural, ...}; also a source "{1}" that would read as a sentinel
	Shell  Kind = "shell"  // $VAR, ${VAR}, $1
	Tag    Kind = "tag"    // <b>, </b>, <br/>, <!-- ... -->
	Entity Kind = "entity" // &amp;, &#169;, &#xA9;
)

// The lexical forms, tried at each position where their first byte occurs.
// printf follows the conversion grammar of C99 and POSIX (positional
// arguments, flags including the grouping ', width and precision given as
// numbers or *, length modifiers) plus gettext's <PRI...> macros and
// Python's %(name)s mapping keys.
var (
	printfRe = regexp.MustCompile(`^%(?:%|<PRI[A-Za-z0-9_]+>|(?:\([A-Za-z_][A-Za-z0-9_.]*\)|[1-9][0-9]*\$)?[-+ #0']*(?:\*(?:[1-9][0-9]*\$)?|[0-9]+)?(?:\.(?:\*(?:[1-9][0-9]*\$)?|[0-9]+)?)?(?:hh|h|ll|l|L|q|j|z|Z|t|I64|I32|I)?(?:[diouxXeEfFgGaAcspnCSr]|<PRI[A-Za-z0-9_]+>))`)
	shellRe  = regexp.MustCompile(`^\$(?:\{[A-Za-z_][A-Za-z0-9_]*(?:[:#%/][^{}]*)?\}|[A-Za-z_][A-Za-z0-9_]*|[0-9])`)
	tagRe    = regexp.MustCompile(`^(?:<!--[\s\S]*?-->|</?[A-Za-z][A-Za-z0-9:._-]*(?:\s+[A-Za-z_:][A-Za-z0-9:._-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=` + "`" + `]+))?)*\s*/?>)`)
	entityRe = regexp.MustCompile(`^&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);`)
	tagName  = regexp.MustCompile(`^</?([A-Za-z][A-Za-z0-9:._-]*)`)
)

// Options choose what is protected; the zero value protects every kind and
// handles no accelerator.
type Options struct {
	// Skip lists kinds left as text (e.g. Shell for a catalogue where $ is
	// a currency sign).
	Skip []Kind
	// Accelerator is the catalogue's accelerator marker ('&', '_', '~'), 0
	// for none.
	Accelerator rune
}

func (o Options) wants(k Kind) bool {
	for _, s := range o.Skip {
		if s == k {
			return false
		}
	}
	return true
}

// match returns the length of the protected span that starts at s[0] and
// its kind, or 0.
func (o Options) match(s string) (int, Kind) {
	try := func(k Kind, re *regexp.Regexp) int {
		if !o.wants(k) {
			return 0
		}
		return len(re.FindString(s))
	}
	switch s[0] {
	case '%':
		// "% o" is a directive to printf but in text it is "5% off":
		// a bare space flag before the conversion is taken as text
		if n := try(Printf, printfRe); n > 0 && !(n == 3 && s[1] == ' ') {
			return n, Printf
		}
	case '$':
		if n := try(Shell, shellRe); n > 0 {
			return n, Shell
		}
	case '<':
		if n := try(Tag, tagRe); n > 0 {
			return n, Tag
		}
	case '&':
		if n := try(Entity, entityRe); n > 0 {
			return n, Entity
		}
	case '{':
		// braces always: a literal {1} in the source would otherwise
		// read as a sentinel in the output
		if n := balancedBraces(s); n > 0 {
			return n, Brace
		}
	}
	return 0, ""
}

// balancedBraces returns the length of the brace group at s[0] with nested
// groups balanced (an ICU plural holds whole sub-messages), or 0 when the
// group does not close. Regular expressions cannot count nesting, hence the
// hand-written scan. A quote does not escape here: ICU's apostrophe rules
// would make "Don't {x}" swallow the placeholder.
func balancedBraces(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '\n':
			return 0
		}
	}
	return 0
}

// tagInfo returns a tag's name and whether it opens, closes or stands alone.
func tagInfo(t string) (name string, open, close bool) {
	if strings.HasPrefix(t, "<!--") {
		return "", false, false
	}
	m := tagName.FindStringSubmatch(t)
	if m == nil {
		return "", false, false
	}
	name = strings.ToLower(m[1])
	switch {
	case strings.HasPrefix(t, "</"):
		return name, false, true
	case strings.HasSuffix(t, "/>") || voidElements[name]:
		return name, false, false
	}
	return name, true, false
}

// voidElements never have a closing tag in HTML.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true,
	"hr": true, "img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}
