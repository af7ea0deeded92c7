package metrics

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// TEROptions configures TER. The zero value is SacreBLEU's default TER:
// case-insensitive, no tercom normalisation, punctuation kept, no special
// treatment of Asian scripts.
type TEROptions struct {
	CaseSensitive bool // do not lowercase (SacreBLEU's --ter-case-sensitive)
	Normalized    bool // tercom normalisation: unescape entities, split punctuation
	NoPunct       bool // delete . , ? : ; ! " ( ) (and CJK punctuation with AsianSupport)
	AsianSupport  bool // with Normalized, split CJK characters; with NoPunct, drop CJK punctuation
}

// signature mirrors SacreBLEU's TERSignature (without the version). The
// tok field is always "tercom", the name SacreBLEU 2.x's TercomTokenizer
// gives itself whatever its options.
func (o TEROptions) signature(nrefs int) signature {
	return signature{
		{"nrefs", nrefsValue(nrefs)},
		{"case", caseValue(!o.CaseSensitive)},
		{"tok", "tercom"},
		{"norm", yesNo(o.Normalized)},
		{"punct", yesNo(!o.NoPunct)},
		{"asian", yesNo(o.AsianSupport)},
	}
}

// TERScore is a TER result. Lower is better: 0 means every hypothesis
// equals a reference, and the score can exceed 100.
type TERScore struct {
	Score     float64 // 100 * NumEdits / RefLength
	NumEdits  int     // edits (shifts included) against each segment's best reference, summed
	RefLength float64 // each segment's reference length averaged over its references, summed
	NRefs     int     // references per segment; -1 when it varies
	Options   TEROptions
	sig       signature
}

// Signature is SacreBLEU's signature, e.g.
// "nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0+strata".
func (s TERScore) Signature() string { return s.sig.String() }

// String formats like SacreBLEU, which prints no detail after the score:
// "TER = 57.14".
func (s TERScore) String() string { return fmt.Sprintf("TER = %.2f", s.Score) }

// TER computes SacreBLEU 2.x's translation edit rate (Snover et al. 2006),
// SacreBLEU's re-implementation of tercom: a beam-limited word edit
// distance plus greedy block shifts, each shift costing one edit. Construct
// it with NewTER.
type TER struct {
	opts TEROptions
}

// NewTER returns the metric. Every combination of options is valid; the
// error is there so that TER is built like the other metrics.
func NewTER(opts TEROptions) (*TER, error) {
	return &TER{opts: opts}, nil
}

// CorpusTER scores hypotheses against reference streams (refs[k][i] is
// stream k's reference for hypothesis i), as SacreBLEU's
// TER().corpus_score does.
func CorpusTER(hyps []string, refs [][]string, opts TEROptions) (TERScore, error) {
	t, err := NewTER(opts)
	if err != nil {
		return TERScore{}, err
	}
	return t.Corpus(hyps, refs)
}

// SentenceTER scores one hypothesis against its references, as SacreBLEU's
// TER().sentence_score does.
func SentenceTER(hyp string, refs []string, opts TEROptions) (TERScore, error) {
	streams := make([][]string, len(refs))
	for k, r := range refs {
		streams[k] = []string{r}
	}
	return CorpusTER([]string{hyp}, streams, opts)
}

// Corpus scores a corpus.
func (t *TER) Corpus(hyps []string, refs [][]string) (TERScore, error) {
	stats, nrefs, err := t.stats(hyps, refs)
	if err != nil {
		return TERScore{}, err
	}
	total := sumStats(stats, t.StatsLen())
	return TERScore{
		Score: terScore(total), NumEdits: int(total[0]), RefLength: total[1],
		NRefs: nrefs, Options: t.opts, sig: t.opts.signature(nrefs),
	}, nil
}

// Name implements Metric.
func (t *TER) Name() string { return "TER" }

// StatsLen implements Metric: the segment's edits against its best
// reference, and its average reference length.
func (t *TER) StatsLen() int { return 2 }

// SegmentStats implements Metric.
func (t *TER) SegmentStats(hyps []string, refs [][]string) ([][]float64, string, error) {
	stats, nrefs, err := t.stats(hyps, refs)
	if err != nil {
		return nil, "", err
	}
	return stats, t.opts.signature(nrefs).String(), nil
}

// ScoreStats implements Metric.
func (t *TER) ScoreStats(total []float64) float64 { return terScore(total) }

// Signature returns the signature for a corpus with nrefs references.
func (t *TER) Signature(nrefs int) string { return t.opts.signature(nrefs).String() }

// terScore is SacreBLEU's TER._compute_score_from_stats: edits per
// reference word, 100 when the references are empty but the hypotheses are
// not, and 0 when both are empty.
func terScore(total []float64) float64 {
	edits, refLen := total[0], total[1]
	switch {
	case refLen > 0:
		return 100 * (edits / refLen)
	case edits > 0:
		return 100
	default:
		return 0
	}
}

func (t *TER) stats(hyps []string, streams [][]string) ([][]float64, int, error) {
	perSeg, nrefs, err := segmentRefs(len(hyps), streams)
	if err != nil {
		return nil, 0, err
	}
	out := make([][]float64, len(hyps))
	for i, hyp := range hyps {
		if out[i], err = t.segmentStats(hyp, perSeg[i]); err != nil {
			return nil, 0, fmt.Errorf("TER, line %d: %w", i+1, err)
		}
	}
	return out, nrefs, nil
}

// TERMaxWords is the longest hypothesis or reference, in words after
// TER's preprocessing, that TER scores; a longer line is an error. The
// edit distance's memory is linear in the line's length (a matrix row
// keeps a band of about 50 cells; scoring a 5,000-word line allocates
// about 28 MiB in all), but its time grows faster: a line at the limit
// takes minutes.
const TERMaxWords = 50000

// segmentStats is SacreBLEU's TER._compute_segment_statistics: the fewest
// edits over the references, and the reference length averaged over all
// references (not the length of the best one).
//
// References are preprocessed twice, hypotheses once. This reproduces
// SacreBLEU 2.x, whose Metric._cache_references preprocesses each
// reference and whose TER._extract_reference_info preprocesses it again.
// With the default options the second pass changes nothing, but with
// Normalized it can: "jim's." becomes "jim's ." after one pass and
// "jim 's ." after two.
func (t *TER) segmentStats(hyp string, refs []string) ([]float64, error) {
	hypWords := pyFields(t.preprocess(hyp))
	if len(hypWords) > TERMaxWords {
		return nil, fmt.Errorf("the hypothesis has %d words; TER scores lines of at most %d", len(hypWords), TERMaxWords)
	}
	best, refLen := math.MaxInt, 0
	for k, r := range refs {
		refWords := pyFields(t.preprocess(t.preprocess(r)))
		if len(refWords) > TERMaxWords {
			return nil, fmt.Errorf("reference %d has %d words; TER scores lines of at most %d", k+1, len(refWords), TERMaxWords)
		}
		edits, n := terEdits(hypWords, refWords)
		refLen += n
		best = min(best, edits)
	}
	return []float64{float64(best), float64(refLen) / float64(len(refs))}, nil
}

// preprocess is SacreBLEU's TER._preprocess_segment: Python's rstrip, then
// the tercom tokenizer.
func (t *TER) preprocess(s string) string {
	return t.tokenize(pyRStrip(s))
}

// tokenize follows SacreBLEU 2.x's TercomTokenizer.__call__: lowercase
// (Python's str.lower) unless case-sensitive, normalise, remove
// punctuation, then collapse whitespace as ' '.join(s.split()) does.
func (t *TER) tokenize(s string) string {
	if s == "" {
		return ""
	}
	if !t.opts.CaseSensitive {
		s = pyLower(s)
	}
	if t.opts.Normalized {
		s = tercomNormalizeWestern(s)
		if t.opts.AsianSupport {
			s = tercomNormalizeAsian(s)
		}
	}
	if t.opts.NoPunct {
		s = strings.Map(dropRunes(isTercomPunct), s)
		if t.opts.AsianSupport {
			s = strings.Map(dropRunes(isTercomAsianPunct), s)
		}
	}
	return strings.Join(pyFields(s), " ")
}

// The regular expressions of tokenizer_ter.py's
// _normalize_general_and_western that depend on context. Go's regexp and
// Python's re.sub agree here: leftmost, non-overlapping matches, one code
// point per class.
var (
	// tercom's punctuation class {-~ [-` space-& (-+ :-@ / (not ' , - .).
	tercomPunctRE = regexp.MustCompile(`([\x20-\x26\x28-\x2b\x2f\x3a-\x40\x5b-\x60\x7b-\x7e])`)
	// period or comma after a non-digit, and before a non-digit.
	tercomAfterNonDigitRE  = regexp.MustCompile(`([^0-9])([.,])`)
	tercomBeforeNonDigitRE = regexp.MustCompile(`([.,])([^0-9])`)
	// dash after a digit.
	tercomDigitDashRE = regexp.MustCompile(`([0-9])(-)`)
)

// tercomNormalizeWestern is tokenizer_ter.py's
// _normalize_general_and_western (itself tercom's Normalizer), step by step
// in the same order: entities are unescaped one after the other, so
// "&amp;lt;" becomes "<" while "&amp;quot;" becomes "&quot;".
func tercomNormalizeWestern(s string) string {
	s = strings.ReplaceAll(s, "\n-", "")
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "&quot;", `"`)
	s = strings.ReplaceAll(s, "&amp;", "&")
	s = strings.ReplaceAll(s, "&lt;", "<")
	s = strings.ReplaceAll(s, "&gt;", ">")
	s = " " + s + " "
	s = tercomPunctRE.ReplaceAllString(s, " $1 ")
	// Possessives. The reference also rewrites "'s" at the very end of the
	// line, which cannot match: the line was just padded with a space.
	s = strings.ReplaceAll(s, "'s ", " 's ")
	s = tercomAfterNonDigitRE.ReplaceAllString(s, "$1 $2 ")
	s = tercomBeforeNonDigitRE.ReplaceAllString(s, " $1 $2")
	return tercomDigitDashRE.ReplaceAllString(s, "$1 $2 ")
}

// tercomNormalizeAsian is tokenizer_ter.py's _normalize_asian: every CJK
// ideograph, stroke, radical, compatibility character, enclosed letter and
// CJK or full-width punctuation mark becomes a token of its own. Padding
// single characters with spaces does not depend on context, so the
// reference's several substitutions are one pass here. Its Hiragana,
// Katakana and Katakana-extension rules are anchored at the start of the
// line ("^"), which after _normalize_general_and_western's padding is
// always a space, so they never match and are left out.
func tercomNormalizeAsian(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	for _, r := range s {
		if isTercomCJK(r) || isTercomAsianPunct(r) {
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isTercomCJK reports the code points _normalize_asian splits off as
// characters: CJK Unified Ideographs and Extension A, CJK Strokes, CJK
// Radicals Supplement, CJK Compatibility (and its Ideographs and Forms),
// and the reference's range U+3200..U+3F22 for enclosed CJK letters, which
// reaches past that block into Extension A.
func isTercomCJK(r rune) bool {
	switch {
	case r >= 0x4e00 && r <= 0x9fff, r >= 0x3400 && r <= 0x4dbf,
		r >= 0x31c0 && r <= 0x31ef, r >= 0x2e80 && r <= 0x2eff,
		r >= 0x3300 && r <= 0x33ff, r >= 0xf900 && r <= 0xfaff,
		r >= 0xfe30 && r <= 0xfe4f, r >= 0x3200 && r <= 0x3f22:
		return true
	}
	return false
}

// isTercomAsianPunct is the union of TercomTokenizer's ASIAN_PUNCT
// (ideographic comma and full stop, CJK brackets, half-width CJK
// punctuation, the katakana middle dot) and FULL_WIDTH_PUNCT (full-width
// . , ? : ; ! " ( )).
func isTercomAsianPunct(r rune) bool {
	switch {
	case r == 0x3001, r == 0x3002, r >= 0x3008 && r <= 0x3011,
		r >= 0x3014 && r <= 0x301f, r >= 0xff61 && r <= 0xff65, r == 0x30fb:
		return true
	case r == 0xff0e, r == 0xff0c, r == 0xff1f, r == 0xff1a, r == 0xff1b,
		r == 0xff01, r == 0xff02, r == 0xff08, r == 0xff09:
		return true
	}
	return false
}

// isTercomPunct is the class tokenizer_ter.py's _remove_punct deletes.
func isTercomPunct(r rune) bool {
	return strings.ContainsRune(`.,?:;!"()`, r)
}

// dropRunes makes a strings.Map function that deletes the runes drop
// reports.
func dropRunes(drop func(rune) bool) func(rune) rune {
	return func(r rune) rune {
		if drop(r) {
			return -1
		}
		return r
	}
}
