package corpus

import "unicode"

// scripts maps a language to the scripts its text is written in; a
// language not listed is taken to be written in Latin script.
var scripts = map[string][]*unicode.RangeTable{
	"ru": {unicode.Cyrillic}, "uk": {unicode.Cyrillic}, "bg": {unicode.Cyrillic}, "sr": {unicode.Cyrillic},
	"be": {unicode.Cyrillic}, "mk": {unicode.Cyrillic}, "kk": {unicode.Cyrillic},
	"ar": {unicode.Arabic}, "fa": {unicode.Arabic}, "ur": {unicode.Arabic},
	"zh": {unicode.Han}, "ja": {unicode.Han, unicode.Hiragana, unicode.Katakana}, "ko": {unicode.Hangul, unicode.Han},
	"el": {unicode.Greek}, "he": {unicode.Hebrew}, "hi": {unicode.Devanagari}, "th": {unicode.Thai},
}

// inScript says whether more than half of the letters of s are in the
// script of lang. Product names in Latin script inside a Russian or
// Chinese sentence are fine; a string left in English is not.
func inScript(lang, s string) bool {
	tables, ok := scripts[lang]
	if !ok {
		tables = []*unicode.RangeTable{unicode.Latin}
	}
	letters, in := 0, 0
	for _, r := range s {
		if !unicode.IsLetter(r) {
			continue
		}
		letters++
		if unicode.In(r, tables...) {
			in++
		}
	}
	return letters > 0 && 2*in > letters
}
