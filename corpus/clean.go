package corpus

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Length limits of a kept pair. Single words are dropped: as labels they
// are too ambiguous to teach translation, and the reference corpus has
// none.
const (
	MinEnglishWords = 2
	MaxEnglishWords = 100
	MaxBytes        = 1000 // per side
	MaxByteRatio    = 4.0  // longer side over shorter, in UTF-8 bytes
	ratioFloor      = 12   // pairs whose longer side is shorter than this skip the ratio test
)

// Drop reasons Clean reports.
const (
	DropPlaceholder = "placeholder"
	DropMarkup      = "markup"
	DropIdentical   = "identical"
	DropScript      = "wrong script"
	DropLength      = "length"
	DropEmpty       = "empty"
)

var (
	// printf (C, with positions), Python %(name)s, Qt/KDE %1, shell
	// and template variables, brace placeholders ({0}, {name}, ICU).
	placeholderRE = regexp.MustCompile(`%(\d+\$)?[-+#0']*(\d+|\*)?(\.(\d+|\*))?(hh|h|ll|l|L|q|j|z|t|I64)?[diouxXeEfFgGaAcspn]|%\([A-Za-z_]\w*\)[sdifr]|%\d|\$\{?[A-Za-z_]\w*\}?|\{[^{}\s]{0,40}\}|@[A-Za-z_]\w*@`)
	// XML/HTML tags and entities.
	markupRE = regexp.MustCompile(`</?[A-Za-z][\w:.-]*(\s[^<>]*)?/?>|<!--|&(#\d+|#x[0-9A-Fa-f]+|[A-Za-z]+);`)
	// CJK-style accelerators appended in brackets: 打开(_O), 開く(&O).
	bracketAccelRE = regexp.MustCompile(`[(（][_&~][A-Za-z0-9][)）]`)
	spaceRE        = regexp.MustCompile(`\s+`)
	entityRE       = regexp.MustCompile(`^&(#\d+|#x[0-9A-Fa-f]+|[A-Za-z]+);`)
)

// Normalize collapses white space (line breaks, tabs, runs) into single
// spaces and trims the ends.
func Normalize(s string) string {
	return strings.TrimSpace(spaceRE.ReplaceAllString(s, " "))
}

// StripAccelerators removes keyboard accelerator markers: GNOME's "_",
// KDE's and Windows' "&", LibreOffice's "~" before a letter or digit, and
// the bracketed forms of CJK translations. A marker is removed only when
// it occurs once in the string, so identifiers (file_name_here), paths
// (~/.config) and "&&" are left alone; "&&" then stands for "&".
func StripAccelerators(s string) string {
	s = bracketAccelRE.ReplaceAllString(s, "")
	for _, m := range []string{"_", "&", "~"} {
		if strings.Count(s, m) != 1 {
			continue
		}
		i := strings.Index(s, m)
		if m == "&" && entityRE.MatchString(s[i:]) {
			continue // &amp; is markup, left for the markup rule
		}
		if r, _ := utf8.DecodeRuneInString(s[i+1:]); unicode.IsLetter(r) || unicode.IsDigit(r) {
			s = s[:i] + s[i+1:]
		}
	}
	return strings.ReplaceAll(s, "&&", "&")
}

// Clean normalises a pair and says why it is dropped ("" to keep it). The
// rules, in order: accelerators are removed and white space collapsed;
// pairs with an empty side, with placeholders, with markup, with the same
// text on both sides (ignoring case), with a target not mostly in its
// language's script, or outside the length limits are dropped.
func Clean(lang, en, tgt string) (string, string, string) {
	en, tgt = Normalize(StripAccelerators(en)), Normalize(StripAccelerators(tgt))
	switch {
	case en == "" || tgt == "":
		return en, tgt, DropEmpty
	case placeholderRE.MatchString(en) || placeholderRE.MatchString(tgt):
		return en, tgt, DropPlaceholder
	case markupRE.MatchString(en) || markupRE.MatchString(tgt):
		return en, tgt, DropMarkup
	case strings.EqualFold(en, tgt):
		return en, tgt, DropIdentical
	case !inScript(English, en) || !inScript(lang, tgt):
		return en, tgt, DropScript
	case !lengthOK(en, tgt):
		return en, tgt, DropLength
	}
	return en, tgt, ""
}

func lengthOK(en, tgt string) bool {
	w := len(strings.Fields(en))
	if w < MinEnglishWords || w > MaxEnglishWords || len(en) > MaxBytes || len(tgt) > MaxBytes {
		return false
	}
	long, short := max(len(en), len(tgt)), min(len(en), len(tgt))
	return long < ratioFloor || float64(long) <= MaxByteRatio*float64(short)
}
