package metrics

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// A Tokenizer turns a detokenised segment into space-separated tokens, as
// SacreBLEU's tokenizers do before BLEU counts n-grams.
type Tokenizer interface {
	// Tokenize returns the tokenised line with tokens separated by spaces.
	Tokenize(line string) string
	// Name is the value of the signature's tok field.
	Name() string
}

// Tokenizer names accepted by NewTokenizer and BLEUOptions.Tokenize.
const (
	Tok13a  = "13a"
	TokIntl = "intl"
	TokZh   = "zh"
	TokChar = "char"
	TokNone = "none"
)

var tokenizers = map[string]func() Tokenizer{
	Tok13a:  func() Tokenizer { return tok13a{} },
	TokIntl: func() Tokenizer { return tokIntl{} },
	TokZh:   func() Tokenizer { return tokZh{} },
	TokChar: func() Tokenizer { return tokChar{} },
	TokNone: func() Tokenizer { return tokNone{} },
}

// TokenizerNames lists the supported tokenizers, sorted.
func TokenizerNames() []string {
	names := make([]string, 0, len(tokenizers))
	for n := range tokenizers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// NewTokenizer returns the tokenizer called name ("" means 13a).
func NewTokenizer(name string) (Tokenizer, error) {
	if name == "" {
		name = Tok13a
	}
	mk, ok := tokenizers[name]
	if !ok {
		return nil, fmt.Errorf("unknown tokenizer %q (want one of %s)",
			name, strings.Join(TokenizerNames(), ", "))
	}
	return mk(), nil
}

type rewrite struct {
	re   *regexp.Regexp
	repl string
}

func applyRewrites(line string, rules []rewrite) string {
	for _, r := range rules {
		line = r.re.ReplaceAllString(line, r.repl)
	}
	return strings.Join(pyFields(line), " ")
}

// mtevalRules are the language-dependent rules of mteval-v13a.pl, shared by
// the 13a and zh tokenizers (SacreBLEU's TokenizerRegexp). The character
// classes are ASCII ranges exactly as in the Perl original.
var mtevalRules = []rewrite{
	// Split off ASCII punctuation and symbols except . , and -.
	{regexp.MustCompile("([\\{-\\~\\[-\\` -\\&\\(-\\+\\:-\\@\\/])"), " ${1} "},
	// Period and comma unless preceded by a digit.
	{regexp.MustCompile(`([^0-9])([\.,])`), "${1} ${2} "},
	// Period and comma unless followed by a digit.
	{regexp.MustCompile(`([\.,])([^0-9])`), " ${1} ${2}"},
	// Dash when preceded by a digit.
	{regexp.MustCompile(`([0-9])(-)`), "${1} ${2} "},
}

// tok13a is mteval-v13a's tokenizer, the WMT standard and BLEU's default.
type tok13a struct{}

func (tok13a) Name() string { return Tok13a }

func (tok13a) Tokenize(line string) string {
	// Order matters and mirrors sacreBLEU: each replacement runs over the
	// whole line before the next ("&amp;quot;" becomes "&quot;", not `"`).
	line = strings.ReplaceAll(line, "<skipped>", "")
	line = strings.ReplaceAll(line, "-\n", "")
	line = strings.ReplaceAll(line, "\n", " ")
	if strings.Contains(line, "&") {
		line = strings.ReplaceAll(line, "&quot;", `"`)
		line = strings.ReplaceAll(line, "&amp;", "&")
		line = strings.ReplaceAll(line, "&lt;", "<")
		line = strings.ReplaceAll(line, "&gt;", ">")
	}
	// The padding lets the period rules see a boundary at both ends.
	return applyRewrites(" "+line+" ", mtevalRules)
}

// tokIntl is mteval-v14's international tokenizer: it splits Unicode
// punctuation unless it sits between digits, and every symbol.
type tokIntl struct{}

func (tokIntl) Name() string { return TokIntl }

var intlRules = []rewrite{
	{regexp.MustCompile(`(\PN)(\pP)`), "${1} ${2} "},
	{regexp.MustCompile(`(\pP)(\PN)`), " ${1} ${2}"},
	{regexp.MustCompile(`(\pS)`), " ${1} "},
}

func (tokIntl) Tokenize(line string) string { return applyRewrites(line, intlRules) }

// tokChar splits every character; whitespace disappears.
type tokChar struct{}

func (tokChar) Name() string { return TokChar }

func (tokChar) Tokenize(line string) string {
	var b strings.Builder
	b.Grow(2 * len(line))
	for _, r := range line {
		if pyIsSpace(r) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// tokNone leaves the line alone; BLEU then splits it on whitespace.
type tokNone struct{}

func (tokNone) Name() string { return TokNone }

func (tokNone) Tokenize(line string) string { return line }
