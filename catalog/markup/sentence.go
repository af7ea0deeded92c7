package markup

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// splitSentences cuts a run of inline content after each sentence end
// that lies outside every inline element (a sentence never splits an
// element). The items' pairs must be set; those of the parts are not.
func splitSentences(run []item) [][]item {
	var out [][]item
	var cur []item
	depth := 0
	for i, it := range run {
		switch {
		case it.code && it.pair > i:
			depth++
		case it.code && it.pair >= 0 && it.pair < i:
			depth--
		}
		if it.code || depth > 0 {
			cur = append(cur, it)
			continue
		}
		prev := 0
		for _, c := range sentenceEnds(it.raw, i == len(run)-1) {
			cur = append(cur, item{raw: it.raw[prev:c], pair: -1, line: it.line})
			out = append(out, cur)
			cur, prev = nil, c
		}
		if prev < len(it.raw) {
			cur = append(cur, item{raw: it.raw[prev:], pair: -1, line: it.line})
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// A sentence ends at terminal punctuation and its closing quotes and
// brackets, followed by blanks and then the start of another sentence.
var sentenceEnd = regexp.MustCompile(`[.!?…]+["'”’»)\]]*[ \t\n\r\f]+`)

// abbreviations that a capitalised word often follows
var abbreviations = set("e.g", "i.e", "etc", "mr", "mrs", "ms", "dr", "prof", "st", "vs", "no", "fig", "cf", "approx", "inc", "ltd", "jr", "sr")

// sentenceEnds returns the offsets in raw after each sentence end (the
// blanks after it included). At the end of raw an end counts when more
// content follows (last false).
func sentenceEnds(raw string, last bool) []int {
	var cuts []int
	for _, m := range sentenceEnd.FindAllStringIndex(raw, -1) {
		if isAbbreviation(raw[:m[0]]) {
			continue
		}
		if m[1] == len(raw) {
			if !last {
				cuts = append(cuts, m[1])
			}
			continue
		}
		r, _ := utf8.DecodeRuneInString(raw[m[1]:])
		if unicode.IsUpper(r) || unicode.IsDigit(r) || strings.ContainsRune(`"'“‘«¿¡(`, r) {
			cuts = append(cuts, m[1])
		}
	}
	return cuts
}

// isAbbreviation says whether the word that ends before a full stop is an
// abbreviation or an initial.
func isAbbreviation(before string) bool {
	w := before[strings.LastIndexAny(before, " \t\n\r\f(")+1:]
	if utf8.RuneCountInString(w) == 1 {
		return true
	}
	return abbreviations[strings.ToLower(w)]
}
