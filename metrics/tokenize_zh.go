package metrics

import "strings"

// zhRanges is sacreBLEU's _UCODE_RANGES table for the zh tokenizer, as
// inclusive code-point ranges. Two of sacreBLEU's entries are written with
// five hex digits after \u, which Python reads as a four-digit escape
// followed by a literal character: ('\u20000', '\u2a6d6') is the string
// pair ("\u2000"+"0", "\u2a6d"+"6"), and ('\u2f800', '\u2fa1d') is
// ("\u2f80"+"0", "\u2fa1"+"d"). Comparing a single character c with them
// as strings gives U+2001 <= c <= U+2A6D and U+2F81 <= c <= U+2FA1, so
// general punctuation, currency signs, arrows and mathematical symbols count
// as "Chinese" and CJK Extension B does not. We keep that quirk: scores must
// equal sacreBLEU's.
var zhRanges = [][2]rune{
	{0x3400, 0x4db5},
	{0x4e00, 0x9fa5},
	{0x9fa6, 0x9fbb},
	{0xf900, 0xfa2d},
	{0xfa30, 0xfa6a},
	{0xfa70, 0xfad9},
	{0x2001, 0x2a6d}, // sacreBLEU's ('\u20000', '\u2a6d6'), see above
	{0x2f81, 0x2fa1}, // sacreBLEU's ('\u2f800', '\u2fa1d'), see above
	{0xff00, 0xffef},
	{0x2e80, 0x2eff},
	{0x3000, 0x303f},
	{0x31c0, 0x31ef},
	{0x2f00, 0x2fdf},
	{0x2ff0, 0x2fff},
	{0x3100, 0x312f},
	{0x31a0, 0x31bf},
	{0xfe10, 0xfe1f},
	{0xfe30, 0xfe4f},
	{0x2600, 0x26ff},
	{0x2700, 0x27bf},
	{0x3200, 0x32ff},
	{0x3300, 0x33ff},
}

func isZhChar(r rune) bool {
	for _, rg := range zhRanges {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// tokZh separates each "Chinese" character (per zhRanges) and tokenises the
// rest with the mteval-v13a rules. Unlike 13a it strips the line instead of
// padding it, and it does not unescape HTML entities.
type tokZh struct{}

func (tokZh) Name() string { return TokZh }

func (tokZh) Tokenize(line string) string {
	line = pyStrip(line)
	var b strings.Builder
	b.Grow(len(line) * 2)
	for _, r := range line {
		if isZhChar(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return applyRewrites(b.String(), mtevalRules)
}
