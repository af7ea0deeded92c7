package metrics

import (
	"fmt"
	"math"
	"strings"
)

// Smoothing methods for BLEU (Chen & Cherry 2014), as named by SacreBLEU.
const (
	SmoothExp   = "exp"   // NIST geometric smoothing (mteval-v13a); the default
	SmoothFloor = "floor" // zero precisions become SmoothValue/total (default 0.1)
	SmoothAddK  = "add-k" // add SmoothValue (default 1) to counts and totals of n>1
	SmoothNone  = "none"
)

// smoothDefaults holds SacreBLEU's SMOOTH_DEFAULTS; NaN marks methods
// without a value.
var smoothDefaults = map[string]float64{
	SmoothNone:  math.NaN(),
	SmoothFloor: 0.1,
	SmoothAddK:  1,
	SmoothExp:   math.NaN(),
}

// DefaultMaxNgramOrder is BLEU's usual n-gram order.
const DefaultMaxNgramOrder = 4

// BLEUOptions configures BLEU. The zero value is SacreBLEU's default:
// tokenizer 13a, mixed case, exp smoothing, order 4, no effective order.
type BLEUOptions struct {
	Tokenize       string   // tokenizer name: 13a (default), intl, zh, char, none
	Lowercase      bool     // lowercase hypotheses and references (Python's str.lower)
	Smooth         string   // exp (default), floor, add-k or none
	SmoothValue    *float64 // floor/add-k value; nil means 0.1 / 1
	MaxNgramOrder  int      // 0 means 4
	EffectiveOrder bool     // stop at the highest order with n-grams (sentence BLEU)
}

// normalized fills defaults and validates the options.
func (o BLEUOptions) normalized() (BLEUOptions, Tokenizer, error) {
	tok, err := NewTokenizer(o.Tokenize)
	if err != nil {
		return o, nil, err
	}
	o.Tokenize = tok.Name()
	if o.Smooth == "" {
		o.Smooth = SmoothExp
	}
	if _, ok := smoothDefaults[o.Smooth]; !ok {
		return o, nil, fmt.Errorf("unknown BLEU smoothing %q (want exp, floor, add-k or none)", o.Smooth)
	}
	if o.MaxNgramOrder == 0 {
		o.MaxNgramOrder = DefaultMaxNgramOrder
	}
	if o.MaxNgramOrder < 1 {
		return o, nil, fmt.Errorf("BLEU max n-gram order must be positive, got %d", o.MaxNgramOrder)
	}
	return o, tok, nil
}

// smoothValue is the value floor and add-k use.
func (o BLEUOptions) smoothValue() float64 {
	if o.SmoothValue != nil {
		return *o.SmoothValue
	}
	return smoothDefaults[o.Smooth]
}

// signature mirrors SacreBLEU's BLEUSignature (without the version).
func (o BLEUOptions) signature(nrefs int) signature {
	smooth := o.Smooth
	if !math.IsNaN(smoothDefaults[o.Smooth]) {
		smooth += fmt.Sprintf("[%.2f]", o.smoothValue())
	}
	return signature{
		{"nrefs", nrefsValue(nrefs)},
		{"case", caseValue(o.Lowercase)},
		{"eff", yesNo(o.EffectiveOrder)},
		{"tok", o.Tokenize},
		{"smooth", smooth},
	}
}

// BLEUScore is a BLEU result with its sufficient statistics.
type BLEUScore struct {
	Score      float64   // 0..100
	Counts     []int     // matched n-grams per order (before add-k smoothing)
	Totals     []int     // hypothesis n-grams per order
	Precisions []float64 // smoothed precisions per order, 0..100
	BP         float64   // brevity penalty
	SysLen     int       // hypothesis length in tokens
	RefLen     int       // closest reference lengths, summed
	NRefs      int       // references per segment; -1 when it varies
	Options    BLEUOptions
	sig        signature
}

// Ratio is SysLen/RefLen (0 when RefLen is 0).
func (s BLEUScore) Ratio() float64 {
	if s.RefLen == 0 {
		return 0
	}
	return float64(s.SysLen) / float64(s.RefLen)
}

// Signature is SacreBLEU's reproducibility signature, e.g.
// "nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0+strata".
func (s BLEUScore) Signature() string { return s.sig.String() }

// Verbose is the part SacreBLEU prints after the score:
// "82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)".
func (s BLEUScore) Verbose() string {
	prec := make([]string, len(s.Precisions))
	for i, p := range s.Precisions {
		prec[i] = fmt.Sprintf("%.1f", p)
	}
	return fmt.Sprintf("%s (BP = %.3f ratio = %.3f hyp_len = %d ref_len = %d)",
		strings.Join(prec, "/"), s.BP, s.Ratio(), s.SysLen, s.RefLen)
}

// String formats the score as SacreBLEU's text output does:
// "BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ...)".
func (s BLEUScore) String() string {
	return fmt.Sprintf("BLEU = %.2f %s", s.Score, s.Verbose())
}

// BLEU computes SacreBLEU's BLEU. Construct it with NewBLEU.
type BLEU struct {
	opts BLEUOptions
	tok  Tokenizer
}

// NewBLEU validates opts and returns the metric.
func NewBLEU(opts BLEUOptions) (*BLEU, error) {
	o, tok, err := opts.normalized()
	if err != nil {
		return nil, err
	}
	return &BLEU{opts: o, tok: tok}, nil
}

// CorpusBLEU scores hypotheses against reference streams (refs[k][i] is
// stream k's reference for hypothesis i), as sacrebleu.corpus_bleu does.
func CorpusBLEU(hyps []string, refs [][]string, opts BLEUOptions) (BLEUScore, error) {
	b, err := NewBLEU(opts)
	if err != nil {
		return BLEUScore{}, err
	}
	return b.Corpus(hyps, refs)
}

// SentenceBLEU scores one hypothesis against its references with effective
// order on, as sacrebleu.sentence_bleu does; opts.EffectiveOrder is forced.
func SentenceBLEU(hyp string, refs []string, opts BLEUOptions) (BLEUScore, error) {
	opts.EffectiveOrder = true
	streams := make([][]string, len(refs))
	for k, r := range refs {
		streams[k] = []string{r}
	}
	return CorpusBLEU([]string{hyp}, streams, opts)
}

// Corpus scores a corpus.
func (b *BLEU) Corpus(hyps []string, refs [][]string) (BLEUScore, error) {
	stats, nrefs, err := b.stats(hyps, refs)
	if err != nil {
		return BLEUScore{}, err
	}
	return b.fromStats(sumStats(stats, b.StatsLen()), nrefs), nil
}

// Name implements Metric.
func (b *BLEU) Name() string { return "BLEU" }

// StatsLen implements Metric: hyp length, ref length, then counts and
// totals for each order.
func (b *BLEU) StatsLen() int { return 2 + 2*b.opts.MaxNgramOrder }

// SegmentStats implements Metric.
func (b *BLEU) SegmentStats(hyps []string, refs [][]string) ([][]float64, string, error) {
	stats, nrefs, err := b.stats(hyps, refs)
	if err != nil {
		return nil, "", err
	}
	return stats, b.opts.signature(nrefs).String(), nil
}

// ScoreStats implements Metric.
func (b *BLEU) ScoreStats(total []float64) float64 { return b.fromStats(total, 0).Score }

// Signature returns the signature for a corpus with nrefs references.
func (b *BLEU) Signature(nrefs int) string { return b.opts.signature(nrefs).String() }

func (b *BLEU) preprocess(s string) string {
	if b.opts.Lowercase {
		s = pyLower(s)
	}
	return b.tok.Tokenize(pyRStrip(s))
}

// stats returns SacreBLEU's per-segment statistics
// [hyp_len, ref_len, correct_1..N, total_1..N].
func (b *BLEU) stats(hyps []string, streams [][]string) ([][]float64, int, error) {
	perSeg, nrefs, err := segmentRefs(len(hyps), streams)
	if err != nil {
		return nil, 0, err
	}
	out := make([][]float64, len(hyps))
	for i, hyp := range hyps {
		out[i] = b.segmentStats(b.preprocess(hyp), perSeg[i])
	}
	return out, nrefs, nil
}

func (b *BLEU) segmentStats(hyp string, refs []string) []float64 {
	order := b.opts.MaxNgramOrder
	var refNgrams map[string]int
	refLens := make([]int, len(refs))
	for k, r := range refs {
		toks := pyFields(b.preprocess(r))
		refLens[k] = len(toks)
		counts := ngramCounts(toks, order)
		if refNgrams == nil {
			refNgrams = counts
			continue
		}
		for g, c := range counts {
			if c > refNgrams[g] {
				refNgrams[g] = c
			}
		}
	}
	hypToks := pyFields(hyp)
	st := make([]float64, 2+2*order)
	st[0] = float64(len(hypToks))
	st[1] = float64(closestRefLen(len(hypToks), refLens))
	for g, c := range ngramCounts(hypToks, order) {
		n := ngramOrder(g) - 1
		st[2+order+n] += float64(c)
		st[2+n] += float64(min(c, refNgrams[g]))
	}
	return st
}

// closestRefLen picks the reference length closest to the hypothesis
// length, the shorter one on ties.
func closestRefLen(hypLen int, refLens []int) int {
	bestDiff, best := -1, -1
	for _, l := range refLens {
		d := hypLen - l
		if d < 0 {
			d = -d
		}
		if bestDiff == -1 || d < bestDiff || (d == bestDiff && l < best) {
			bestDiff, best = d, l
		}
	}
	return best
}

// fromStats is SacreBLEU's compute_bleu on summed statistics.
func (b *BLEU) fromStats(st []float64, nrefs int) BLEUScore {
	o := b.opts
	order := o.MaxNgramOrder
	s := BLEUScore{
		Counts:     make([]int, order),
		Totals:     make([]int, order),
		Precisions: make([]float64, order),
		SysLen:     int(st[0]),
		RefLen:     int(st[1]),
		NRefs:      nrefs,
		Options:    o,
		sig:        o.signature(nrefs),
	}
	correct := make([]float64, order)
	total := make([]float64, order)
	anyCorrect := false
	for n := 0; n < order; n++ {
		correct[n], total[n] = st[2+n], st[2+order+n]
		s.Counts[n], s.Totals[n] = int(correct[n]), int(total[n])
		anyCorrect = anyCorrect || correct[n] != 0
	}
	s.BP = brevityPenalty(st[0], st[1])
	if !anyCorrect {
		return s // SacreBLEU returns 0 early when nothing matches (#141)
	}
	sv := o.smoothValue()
	smoothMteval := 1.0
	effOrder := order
	for n := 1; n <= order; n++ {
		if o.Smooth == SmoothAddK && n > 1 {
			correct[n-1] += sv
			total[n-1] += sv
		}
		if total[n-1] == 0 {
			break
		}
		if o.EffectiveOrder {
			effOrder = n
		}
		switch {
		case correct[n-1] != 0:
			s.Precisions[n-1] = 100 * correct[n-1] / total[n-1]
		case o.Smooth == SmoothExp:
			smoothMteval *= 2
			s.Precisions[n-1] = 100 / (smoothMteval * total[n-1])
		case o.Smooth == SmoothFloor:
			s.Precisions[n-1] = 100 * sv / total[n-1]
		}
	}
	// Left-to-right, like Python's sum() up to 3.11 (3.12 compensates; the
	// difference is in the last bits, see docs/metrics.md).
	sum := 0.0
	for _, p := range s.Precisions[:effOrder] {
		sum += myLog(p)
	}
	s.Score = s.BP * math.Exp(sum/float64(effOrder))
	return s
}

func brevityPenalty(sysLen, refLen float64) float64 {
	if sysLen < refLen {
		if sysLen > 0 {
			return math.Exp(1 - refLen/sysLen)
		}
		return 0
	}
	return 1
}

// myLog is SacreBLEU's (and multi-bleu.perl's) log with log(0) = -9999999999.
func myLog(x float64) float64 {
	if x == 0 {
		return -9999999999
	}
	return math.Log(x)
}

func sumStats(stats [][]float64, width int) []float64 {
	total := make([]float64, width)
	for _, s := range stats {
		for j, v := range s {
			total[j] += v
		}
	}
	return total
}
