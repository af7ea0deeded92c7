// Package doccheck finds work-log language in user documentation: numbered
// work periods ("the fifth session"), who did the work alongside, and
// references to strata's own issue numbers ("issue 18's trainings",
// "#18"). User documentation describes the product as it is; its history
// lives in the version control log. References to other projects' issues
// ("LibreTranslate's issue 806", "SacreBLEU #141") are allowed.
package doccheck

import (
	"regexp"
	"slices"
	"strings"
)

// Finding is one work-log phrase in a text.
type Finding struct {
	Line   int    // 1-based
	Phrase string // the text matched
	Rule   string // what kind of phrase it is
}

const ordinals = `first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|` +
	`thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty-\w+|\d+(?:st|nd|rd|th)`

// rules are the kinds of work-log phrase, each a case-insensitive pattern.
var rules = []struct {
	name string
	re   *regexp.Regexp
}{
	{"numbered or relative work period", regexp.MustCompile(`(?i)\b(?:` + ordinals +
		`|this|last|previous|next|earlier|later|same|one|two|three|four|five|six|seven|helper) (?:work )?sessions?\b`)},
	{"numbered run of figures", regexp.MustCompile(`(?i)(?:^|[^a] |[(,] ?)\b(?:second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth) runs?\b`)},
	{"numbered day of figures", regexp.MustCompile(`(?i)\b(?:` + ordinals + `) day (?:of figures|running)\b`)},
	{"work period", regexp.MustCompile(`(?i)\b(?:this round|work period)\b`)},
	{"who worked alongside", regexp.MustCompile(`(?i)\b(?:worked|work|jobs|builds|tests) alongside\b|\b(?:other|another|two|three|four|five|six|seven|eight|nine) helpers?\b|\bthe lead(?:'s)?\b`)},
	{"strata issue number", regexp.MustCompile(`(?i)\bissue #?\d+|\bissues #?\d+(?:(?:,|,? and|,? &) #?\d+)+`)},
	{"#N issue reference", regexp.MustCompile(`(?:^|[\s(\[])#\d{2,}\b`)},
	{"timestamped state", regexp.MustCompile(`\b20\d\d-\d\d-\d\d[ T]\d\d:\d\d\b`)},
	{"history section", regexp.MustCompile(`(?im)^#+ +history\s*$`)},
}

// otherProjects are the projects whose issues documentation may cite; an
// issue reference with one of these names just before it is theirs.
var otherProjects = regexp.MustCompile(`(?i)\b(?:libretranslate|fairseq|sacrebleu|pytorch|torch|marian|gettext|translate-toolkit|fasttext|openmpi|open mpi|golang|ctranslate2|opennmt|huggingface|transformers|sentencepiece|subword-nmt|github\.com/[\w.-]+/[\w.-]+)\b`)

// citeWindow is how far before an issue reference (in bytes) the name of
// the project it belongs to is looked for.
const citeWindow = 80

// Find returns the work-log phrases of text, in order.
func Find(text string) []Finding {
	var out []Finding
	lineStarts := []int{0}
	for i, c := range text {
		if c == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	lineOf := func(off int) int {
		lo, hi := 0, len(lineStarts)
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if lineStarts[mid] <= off {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo + 1
	}
	for _, r := range rules {
		for _, m := range r.re.FindAllStringIndex(text, -1) {
			if strings.Contains(r.name, "issue") && citesOtherProject(text, m[0]) {
				continue
			}
			out = append(out, Finding{Line: lineOf(m[0]), Phrase: strings.TrimSpace(text[m[0]:m[1]]), Rule: r.name})
		}
	}
	slices.SortStableFunc(out, func(a, b Finding) int { return a.Line - b.Line })
	return out
}

// citesOtherProject says whether another project is named just before off.
func citesOtherProject(text string, off int) bool {
	return otherProjects.MatchString(text[max(off-citeWindow, 0):off])
}
