package metrics

import (
	"fmt"
	"strings"
)

// ROUGE variants.
const (
	Rouge1 = "1"
	Rouge2 = "2"
	RougeL = "L"
)

// ROUGEOptions configures ROUGE.
type ROUGEOptions struct {
	// Whitespace tokenises by lowercasing (Python-style, Unicode-aware) and
	// splitting on whitespace, for languages other than English. The default
	// is ROUGE-1.5.5's tokenisation: lowercase, every character outside
	// [a-z0-9] becomes a space.
	Whitespace bool
}

// ROUGEScore is one ROUGE variant averaged over segments, each 0..100.
type ROUGEScore struct {
	Variant               string // "1", "2" or "L"
	Recall, Precision, F1 float64
	NRefs                 int
	sig                   signature
}

// Name is "ROUGE-1", "ROUGE-2" or "ROUGE-L".
func (s ROUGEScore) Name() string { return "ROUGE-" + s.Variant }

// String formats as "ROUGE-1 = 41.23 (R = 40.00 P = 42.50)".
func (s ROUGEScore) String() string {
	return fmt.Sprintf("%s = %.2f (R = %.2f P = %.2f)", s.Name(), s.F1, s.Recall, s.Precision)
}

// Signature describes the computation.
func (s ROUGEScore) Signature() string { return s.sig.String() }

// ROUGE computes one ROUGE variant following ROUGE-1.5.5's definitions with
// its defaults (-a, alpha 0.5, no stemming, no stopword removal): per
// segment, n-gram (or LCS) hits, recall and precision are pooled over the
// references (ROUGE-1.5.5's "model average", -f A), F1 = 2PR/(P+R), and the
// corpus score is the mean over segments. ROUGE-L uses the LCS of the whole
// segment.
type ROUGE struct {
	variant string
	opts    ROUGEOptions
}

// NewROUGE returns the metric for variant "1", "2" or "L".
func NewROUGE(variant string, opts ROUGEOptions) (*ROUGE, error) {
	switch variant {
	case Rouge1, Rouge2, RougeL:
		return &ROUGE{variant: variant, opts: opts}, nil
	}
	return nil, fmt.Errorf("unknown ROUGE variant %q (want 1, 2 or L)", variant)
}

func (r *ROUGE) signature(nrefs int) signature {
	tok := "rouge155"
	if r.opts.Whitespace {
		tok = "whitespace"
	}
	return signature{{"nrefs", nrefsValue(nrefs)}, {"case", "lc"}, {"tok", tok},
		{"stem", "no"}, {"impl", "rouge-1.5.5"}}
}

// Name implements Metric.
func (r *ROUGE) Name() string { return "ROUGE-" + r.variant }

// StatsLen implements Metric: recall, precision, F1 of the segment, and 1.
func (r *ROUGE) StatsLen() int { return 4 }

// ScoreStats implements Metric: the mean F1, 0..100.
func (r *ROUGE) ScoreStats(total []float64) float64 {
	if total[3] == 0 {
		return 0
	}
	return 100 * total[2] / total[3]
}

// SegmentStats implements Metric.
func (r *ROUGE) SegmentStats(hyps []string, refs [][]string) ([][]float64, string, error) {
	perSeg, nrefs, err := segmentRefs(len(hyps), refs)
	if err != nil {
		return nil, "", err
	}
	out := make([][]float64, len(hyps))
	for i, h := range hyps {
		out[i] = r.segmentStats(r.tokens(h), perSeg[i])
	}
	return out, r.signature(nrefs).String(), nil
}

// Corpus scores a corpus.
func (r *ROUGE) Corpus(hyps []string, refs [][]string) (ROUGEScore, error) {
	perSeg, nrefs, err := segmentRefs(len(hyps), refs)
	if err != nil {
		return ROUGEScore{}, err
	}
	s := ROUGEScore{Variant: r.variant, NRefs: nrefs, sig: r.signature(nrefs)}
	if len(hyps) == 0 {
		return s, nil
	}
	for i, h := range hyps {
		st := r.segmentStats(r.tokens(h), perSeg[i])
		s.Recall += st[0]
		s.Precision += st[1]
		s.F1 += st[2]
	}
	n := float64(len(hyps))
	s.Recall, s.Precision, s.F1 = 100*s.Recall/n, 100*s.Precision/n, 100*s.F1/n
	return s, nil
}

// CorpusROUGE computes ROUGE-1, ROUGE-2 and ROUGE-L.
func CorpusROUGE(hyps []string, refs [][]string, opts ROUGEOptions) ([]ROUGEScore, error) {
	var out []ROUGEScore
	for _, v := range []string{Rouge1, Rouge2, RougeL} {
		r, _ := NewROUGE(v, opts)
		s, err := r.Corpus(hyps, refs)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func (r *ROUGE) tokens(s string) []string {
	if r.opts.Whitespace {
		return pyFields(pyLower(s))
	}
	b := []byte(asciiLower(s))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			b[i] = ' '
		}
	}
	return strings.Fields(string(b))
}

// segmentStats returns recall, precision, F1 and 1 for one segment.
func (r *ROUGE) segmentStats(hyp []string, refs []string) []float64 {
	hits, refTotal, hypTotal := 0, 0, 0
	for _, ref := range refs {
		rt := r.tokens(ref)
		var h, rn, hn int
		if r.variant == RougeL {
			h, rn, hn = lcsLen(hyp, rt), len(rt), len(hyp)
		} else {
			h, rn, hn = ngramOverlap(hyp, rt, int(r.variant[0]-'0'))
		}
		hits, refTotal, hypTotal = hits+h, refTotal+rn, hypTotal+hn
	}
	rec, prec, f := 0.0, 0.0, 0.0
	if refTotal > 0 {
		rec = float64(hits) / float64(refTotal)
	}
	if hypTotal > 0 {
		prec = float64(hits) / float64(hypTotal)
	}
	if rec+prec > 0 {
		f = 2 * prec * rec / (prec + rec)
	}
	return []float64{rec, prec, f, 1}
}

// ngramOverlap returns clipped n-gram hits and the n-gram counts of the
// reference and the hypothesis.
func ngramOverlap(hyp, ref []string, n int) (hits, refCount, hypCount int) {
	refNg := map[string]int{}
	for i := 0; i+n <= len(ref); i++ {
		refNg[strings.Join(ref[i:i+n], " ")]++
		refCount++
	}
	for i := 0; i+n <= len(hyp); i++ {
		g := strings.Join(hyp[i:i+n], " ")
		if refNg[g] > 0 {
			refNg[g]--
			hits++
		}
		hypCount++
	}
	return hits, refCount, hypCount
}

// lcsLen is the length of the longest common subsequence of a and b.
func lcsLen(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
