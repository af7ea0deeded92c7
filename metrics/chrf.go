package metrics

import (
	"fmt"
	"strings"
)

// chrF defaults (Popović 2015, 2017) as in SacreBLEU.
const (
	DefaultChrFCharOrder = 6
	DefaultChrFBeta      = 2
)

// CHRFOptions configures chrF/chrF++. The zero value is SacreBLEU's
// default chrF: character order 6, word order 0, beta 2, whitespace
// excluded, effective-order averaging.
type CHRFOptions struct {
	CharOrder    int  // 0 means 6
	WordOrder    int  // 0 for chrF, 2 for chrF++
	Beta         int  // 0 means 2
	Lowercase    bool // Python's str.lower
	Whitespace   bool // keep whitespace inside character n-grams
	EpsSmoothing bool // chrF++.py/NLTK/Moses eps smoothing instead of effective order
}

func (o CHRFOptions) normalized() (CHRFOptions, error) {
	if o.CharOrder == 0 {
		o.CharOrder = DefaultChrFCharOrder
	}
	if o.Beta == 0 {
		o.Beta = DefaultChrFBeta
	}
	if o.CharOrder < 0 || o.WordOrder < 0 || o.Beta < 0 {
		return o, fmt.Errorf("chrF orders and beta must not be negative (char %d, word %d, beta %d)",
			o.CharOrder, o.WordOrder, o.Beta)
	}
	return o, nil
}

func (o CHRFOptions) name() string {
	return fmt.Sprintf("chrF%d%s", o.Beta, strings.Repeat("+", o.WordOrder))
}

func (o CHRFOptions) signature(nrefs int) signature {
	return signature{
		{"nrefs", nrefsValue(nrefs)},
		{"case", caseValue(o.Lowercase)},
		{"eff", yesNo(!o.EpsSmoothing)},
		{"nc", fmt.Sprint(o.CharOrder)},
		{"nw", fmt.Sprint(o.WordOrder)},
		{"space", yesNo(o.Whitespace)},
	}
}

// CHRFScore is a chrF or chrF++ result.
type CHRFScore struct {
	Score   float64 // 0..100
	Name    string  // "chrF2", or "chrF2++" for word order 2
	NRefs   int
	Options CHRFOptions
	Stats   []int // summed [hyp, ref, match] triples per order, chars first
	sig     signature
}

// Signature is SacreBLEU's signature, e.g.
// "nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.6.0+strata".
func (s CHRFScore) Signature() string { return s.sig.String() }

// String formats like SacreBLEU: "chrF2 = 59.73".
func (s CHRFScore) String() string { return fmt.Sprintf("%s = %.2f", s.Name, s.Score) }

// CHRF computes SacreBLEU's chrF/chrF++. Construct it with NewCHRF.
type CHRF struct{ opts CHRFOptions }

// NewCHRF validates opts and returns the metric.
func NewCHRF(opts CHRFOptions) (*CHRF, error) {
	o, err := opts.normalized()
	if err != nil {
		return nil, err
	}
	return &CHRF{opts: o}, nil
}

// CorpusCHRF scores hypotheses against reference streams, as
// sacrebleu.corpus_chrf does.
func CorpusCHRF(hyps []string, refs [][]string, opts CHRFOptions) (CHRFScore, error) {
	c, err := NewCHRF(opts)
	if err != nil {
		return CHRFScore{}, err
	}
	return c.Corpus(hyps, refs)
}

// SentenceCHRF scores one hypothesis against its references.
func SentenceCHRF(hyp string, refs []string, opts CHRFOptions) (CHRFScore, error) {
	streams := make([][]string, len(refs))
	for k, r := range refs {
		streams[k] = []string{r}
	}
	return CorpusCHRF([]string{hyp}, streams, opts)
}

// Corpus scores a corpus.
func (c *CHRF) Corpus(hyps []string, refs [][]string) (CHRFScore, error) {
	stats, nrefs, err := c.stats(hyps, refs)
	if err != nil {
		return CHRFScore{}, err
	}
	total := sumStats(stats, c.StatsLen())
	ints := make([]int, len(total))
	for i, v := range total {
		ints[i] = int(v)
	}
	return CHRFScore{
		Score: c.fScore(total), Name: c.opts.name(), NRefs: nrefs,
		Options: c.opts, Stats: ints, sig: c.opts.signature(nrefs),
	}, nil
}

// Name implements Metric.
func (c *CHRF) Name() string { return c.opts.name() }

// StatsLen implements Metric.
func (c *CHRF) StatsLen() int { return 3 * (c.opts.CharOrder + c.opts.WordOrder) }

// SegmentStats implements Metric.
func (c *CHRF) SegmentStats(hyps []string, refs [][]string) ([][]float64, string, error) {
	stats, nrefs, err := c.stats(hyps, refs)
	if err != nil {
		return nil, "", err
	}
	return stats, c.opts.signature(nrefs).String(), nil
}

// ScoreStats implements Metric.
func (c *CHRF) ScoreStats(total []float64) float64 { return c.fScore(total) }

// Signature returns the signature for a corpus with nrefs references.
func (c *CHRF) Signature(nrefs int) string { return c.opts.signature(nrefs).String() }

func (c *CHRF) stats(hyps []string, streams [][]string) ([][]float64, int, error) {
	perSeg, nrefs, err := segmentRefs(len(hyps), streams)
	if err != nil {
		return nil, 0, err
	}
	out := make([][]float64, len(hyps))
	for i, hyp := range hyps {
		out[i] = c.segmentStats(hyp, perSeg[i])
	}
	return out, nrefs, nil
}

// ngrams extracts the character n-grams (orders 1..CharOrder) and then the
// word n-grams (orders 1..WordOrder) of a segment, one map per order.
func (c *CHRF) ngrams(s string) []map[string]int {
	if c.opts.Lowercase {
		s = pyLower(s)
	}
	out := make([]map[string]int, 0, c.opts.CharOrder+c.opts.WordOrder)
	line := s
	if !c.opts.Whitespace {
		line = strings.Join(pyFields(s), "")
	}
	runes := []rune(line)
	for n := 1; n <= c.opts.CharOrder; n++ {
		m := make(map[string]int, len(runes))
		for i := 0; i+n <= len(runes); i++ {
			m[string(runes[i:i+n])]++
		}
		out = append(out, m)
	}
	if c.opts.WordOrder > 0 {
		words := chrfWords(s)
		for n := 1; n <= c.opts.WordOrder; n++ {
			m := make(map[string]int, len(words))
			for i := 0; i+n <= len(words); i++ {
				m[strings.Join(words[i:i+n], " ")]++
			}
			out = append(out, m)
		}
	}
	return out
}

// chrfPunct is Python's string.punctuation, which chrF++ splits off words.
const chrfPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// chrfWords is SacreBLEU's _remove_punctuation: one punctuation mark is
// split off the end of a word, or else off its start ("(hi)" gives "(hi"
// and ")"; single characters stay whole).
func chrfWords(s string) []string {
	var out []string
	for _, w := range pyFields(s) {
		rs := []rune(w)
		switch {
		case len(rs) == 1:
			out = append(out, w)
		case strings.ContainsRune(chrfPunct, rs[len(rs)-1]):
			out = append(out, string(rs[:len(rs)-1]), string(rs[len(rs)-1]))
		case strings.ContainsRune(chrfPunct, rs[0]):
			out = append(out, string(rs[0]), string(rs[1:]))
		default:
			out = append(out, w)
		}
	}
	return out
}

// segmentStats returns the [hyp, ref, match] triples against the reference
// with the best f-score (the first one on ties).
func (c *CHRF) segmentStats(hyp string, refs []string) []float64 {
	hypNgrams := c.ngrams(hyp)
	var best []float64
	bestF := -1.0
	for _, r := range refs {
		refNgrams := c.ngrams(r)
		st := make([]float64, 0, 3*len(hypNgrams))
		for k, h := range hypNgrams {
			st = append(st, matchStats(h, refNgrams[k])...)
		}
		if f := c.fScore(st); f > bestF {
			bestF, best = f, st
		}
	}
	return best
}

// matchStats is SacreBLEU's _get_match_statistics. Note the quirk it keeps:
// hypothesis n-grams count as 0 when the reference has none of that order.
func matchStats(hyp, ref map[string]int) []float64 {
	match, hypCount, refCount := 0, 0, 0
	for g, c := range hyp {
		hypCount += c
		if rc, ok := ref[g]; ok {
			match += min(c, rc)
		}
	}
	for _, c := range ref {
		refCount += c
	}
	if len(ref) == 0 {
		hypCount = 0
	}
	return []float64{float64(hypCount), float64(refCount), float64(match)}
}

// fScore is SacreBLEU's _compute_f_score.
func (c *CHRF) fScore(st []float64) float64 {
	const eps = 1e-16
	order := c.opts.CharOrder + c.opts.WordOrder
	factor := float64(c.opts.Beta * c.opts.Beta)
	score, avgPrec, avgRec, effOrder := 0.0, 0.0, 0.0, 0
	for i := 0; i < order; i++ {
		nHyp, nRef, nMatch := st[3*i], st[3*i+1], st[3*i+2]
		prec, rec := eps, eps
		if nHyp > 0 {
			prec = nMatch / nHyp
		}
		if nRef > 0 {
			rec = nMatch / nRef
		}
		// float64() stops the compiler from fusing into an FMA on arm64,
		// which would change the last bits relative to Python.
		if denom := float64(factor*prec) + rec; denom > 0 {
			score += (1 + factor) * prec * rec / denom
		} else {
			score += eps
		}
		if nHyp > 0 && nRef > 0 {
			avgPrec += prec
			avgRec += rec
			effOrder++
		}
	}
	if c.opts.EpsSmoothing {
		return 100 * score / float64(order)
	}
	if effOrder == 0 {
		return 0
	}
	avgPrec /= float64(effOrder)
	avgRec /= float64(effOrder)
	if avgPrec+avgRec == 0 {
		return 0
	}
	// Same operation order as SacreBLEU, for identical bits.
	s := (1 + factor) * avgPrec * avgRec
	s /= float64(factor*avgPrec) + avgRec
	return 100 * s
}
