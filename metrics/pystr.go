package metrics

import (
	"strings"
	"unicode"
)

// SacreBLEU is written in Python and its tokenisers lean on str.split(),
// str.strip() and str.lower(). Python's notion of whitespace and of
// lowercasing differs from Go's strings package for a few code points, so
// these helpers reproduce Python's behaviour (CPython 3.x, checked
// exhaustively against python3 by TestPythonParity).

// pyIsSpace reports whether r is whitespace for Python's str.isspace().
// Python also counts the ASCII information separators U+001C..U+001F,
// which Go's unicode.IsSpace does not.
func pyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// pyFields splits s like Python's s.split() with no argument.
func pyFields(s string) []string {
	return strings.FieldsFunc(s, pyIsSpace)
}

// pyStrip is Python's s.strip() with no argument.
func pyStrip(s string) string {
	return strings.TrimFunc(s, pyIsSpace)
}

// pyRStrip is Python's s.rstrip() with no argument.
func pyRStrip(s string) string {
	return strings.TrimRightFunc(s, pyIsSpace)
}

// pyLower is Python's s.lower(): Unicode full lowercase mapping, which
// differs from Go's strings.ToLower in two places. U+0130 (capital I with
// dot above) becomes "i" + U+0307, and capital sigma becomes final sigma
// (U+03C2) at the end of a word, following Unicode's Final_Sigma context as
// CPython implements it.
func pyLower(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s) + 2)
	for i, r := range rs {
		switch r {
		case 0x130:
			b.WriteString("i\u0307")
		case 0x3a3:
			if finalSigma(rs, i) {
				b.WriteRune(0x3c2)
			} else {
				b.WriteRune(0x3c3)
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma implements CPython's handle_capital_sigma: the sigma at rs[i]
// is final when a cased letter precedes it (skipping case-ignorable
// characters) and no cased letter follows it (skipping the same).
func finalSigma(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && isCaseIgnorable(rs[j]) {
		j--
	}
	if j < 0 || !isCased(rs[j]) {
		return false
	}
	j = i + 1
	for j < len(rs) && isCaseIgnorable(rs[j]) {
		j++
	}
	return j == len(rs) || !isCased(rs[j])
}

// isCased is Unicode's derived property Cased: Lowercase, Uppercase or
// titlecase letters.
func isCased(r rune) bool {
	return unicode.In(r, unicode.Ll, unicode.Lu, unicode.Lt,
		unicode.Other_Lowercase, unicode.Other_Uppercase)
}

// wordBreakIgnorable lists the Word_Break values MidLetter, MidNumLet and
// Single_Quote, which Case_Ignorable includes; Go's unicode package has no
// Word_Break table, and this list is short and stable.
var wordBreakIgnorable = map[rune]bool{
	0x27: true, 0x2e: true, 0x3a: true, 0xb7: true, 0x387: true,
	0x55f: true, 0x5f4: true, 0x2018: true, 0x2019: true, 0x2024: true,
	0x2027: true, 0xfe13: true, 0xfe52: true, 0xfe55: true, 0xff07: true,
	0xff0e: true, 0xff1a: true,
}

// isCaseIgnorable is Unicode's derived property Case_Ignorable.
func isCaseIgnorable(r rune) bool {
	return wordBreakIgnorable[r] ||
		unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}
