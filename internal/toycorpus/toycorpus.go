// Package toycorpus generates the quickstart's parallel corpus: sentences of
// a small toy grammar rendered into three invented languages that differ in
// vocabulary, word order and morphology. Everything is produced by code from
// a fixed seed (no text is copied from anywhere), so the quickstart needs no
// downloads and every run sees the same data.
//
// The languages use ISO 639-2's local-use codes (qaa-qtz), which no real
// language has:
//
//	qaa  SVO, determiner-adjective-noun, plural suffix, tense particle before
//	     the verb, prepositions
//	qab  SOV, noun-adjective-determiner, plural prefix, tense and negation as
//	     verb suffixes, postpositions
//	qac  VSO, noun-adjective, plural suffix, tense particle after the verb,
//	     prepositions
package toycorpus

import (
	"math/rand/v2"
	"strings"
)

// Languages lists the codes of the toy languages.
var Languages = []string{"qaa", "qab", "qac"}

// frame is the meaning of one sentence, independent of any language.
type frame struct {
	subj, obj np
	verb      int
	tense     int // 0 present, 1 past, 2 future
	negated   bool
	place     *np // optional location
	placeRel  int // which preposition (in, on, near)
}

type np struct {
	noun, adj int // adj -1 = none
	plural    bool
	definite  bool
}

const (
	nNouns = 48
	nVerbs = 24
	nAdjs  = 16
	nRels  = 3
)

// lexicon holds one language's invented words.
type lexicon struct {
	nouns, verbs, adjs, rels []string
	det                      [2]string // indefinite, definite
	tense                    [3]string // particles or suffixes
	neg, plural              string
}

// Sentence is one meaning rendered in every toy language.
type Sentence map[string]string

// Generate returns n sentences; the same (n, seed) always gives the same
// corpus.
func Generate(n int, seed uint64) []Sentence {
	lex := lexicons()
	r := rand.New(rand.NewPCG(seed, 0x70c0))
	out := make([]Sentence, n)
	for i := range out {
		f := randomFrame(r)
		out[i] = Sentence{
			"qaa": renderA(f, lex["qaa"]),
			"qab": renderB(f, lex["qab"]),
			"qac": renderC(f, lex["qac"]),
		}
	}
	return out
}

func randomFrame(r *rand.Rand) frame {
	f := frame{subj: randomNP(r), obj: randomNP(r), verb: r.IntN(nVerbs), tense: r.IntN(3), negated: r.IntN(5) == 0}
	if r.IntN(3) == 0 {
		p := randomNP(r)
		f.place, f.placeRel = &p, r.IntN(nRels)
	}
	return f
}

func randomNP(r *rand.Rand) np {
	p := np{noun: r.IntN(nNouns), adj: -1, plural: r.IntN(3) == 0, definite: r.IntN(2) == 0}
	if r.IntN(2) == 0 {
		p.adj = r.IntN(nAdjs)
	}
	return p
}

// lexicons invents each language's words from its own syllable inventory
// with a fixed seed; words are unique within a language.
func lexicons() map[string]lexicon {
	syll := map[string][]string{
		"qaa": {"ba", "do", "ki", "lu", "me", "no", "pa", "ri", "so", "te", "va", "zu", "bel", "dor", "kin", "mar"},
		"qab": {"ka", "zu", "ri", "ho", "ne", "shi", "ta", "mo", "yu", "ke", "ra", "so", "gan", "tek", "hum", "pol"},
		"qac": {"ae", "il", "or", "un", "es", "ath", "ien", "ol", "ur", "ir", "an", "el", "lor", "vin", "dae", "ith"},
	}
	out := map[string]lexicon{}
	for i, code := range Languages {
		r := rand.New(rand.NewPCG(uint64(i+1), 0x1e8))
		used := map[string]bool{}
		word := func(minS, maxS int) string {
			for {
				var b strings.Builder
				k := minS + r.IntN(maxS-minS+1)
				for j := 0; j < k; j++ {
					b.WriteString(syll[code][r.IntN(len(syll[code]))])
				}
				if w := b.String(); !used[w] {
					used[w] = true
					return w
				}
			}
		}
		words := func(n, minS, maxS int) []string {
			ws := make([]string, n)
			for j := range ws {
				ws[j] = word(minS, maxS)
			}
			return ws
		}
		out[code] = lexicon{
			nouns: words(nNouns, 2, 3), verbs: words(nVerbs, 2, 3), adjs: words(nAdjs, 2, 2), rels: words(nRels, 1, 1),
			det: [2]string{word(1, 1), word(1, 1)}, tense: [3]string{word(1, 1), word(1, 1), word(1, 1)},
			neg: word(1, 1), plural: syll[code][r.IntN(len(syll[code]))],
		}
	}
	return out
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func sentence(words []string, end string) string {
	var ws []string
	for _, w := range words {
		if w != "" {
			ws = append(ws, w)
		}
	}
	return capitalise(strings.Join(ws, " ")) + end
}
