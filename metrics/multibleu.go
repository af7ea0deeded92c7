package metrics

import (
	"fmt"
	"strings"
)

// MultiBLEU computes BLEU exactly as Moses' multi-bleu.perl does, on text
// that is already tokenised: tokens are split on ASCII whitespace only, -lc
// lowercases ASCII letters only (the script reads bytes, so Perl's lc leaves
// other letters alone), order 4, no smoothing, closest reference length
// with ties going to the shorter one. Construct it with NewMultiBLEU.
type MultiBLEU struct{ lowercase bool }

// NewMultiBLEU returns multi-bleu.perl's BLEU; lowercase is its -lc flag.
func NewMultiBLEU(lowercase bool) *MultiBLEU { return &MultiBLEU{lowercase: lowercase} }

// MultiBLEUScore is multi-bleu.perl's result.
type MultiBLEUScore struct {
	Score      float64 // 0..100
	Precisions []float64
	BP         float64
	SysLen     int
	RefLen     int
	NRefs      int
	sig        signature
}

// String formats like multi-bleu.perl's output line.
func (s MultiBLEUScore) String() string {
	ratio := 0.0
	if s.RefLen > 0 {
		ratio = float64(s.SysLen) / float64(s.RefLen)
	}
	return fmt.Sprintf("BLEU = %.2f, %.1f/%.1f/%.1f/%.1f (BP=%.3f, ratio=%.3f, hyp_len=%d, ref_len=%d)",
		s.Score, s.Precisions[0], s.Precisions[1], s.Precisions[2], s.Precisions[3],
		s.BP, ratio, s.SysLen, s.RefLen)
}

// Signature describes the computation: "nrefs:1|case:mixed|tok:none|impl:multi-bleu.perl|version:...".
func (s MultiBLEUScore) Signature() string { return s.sig.String() }

// Name implements Metric.
func (m *MultiBLEU) Name() string { return "multi-bleu" }

// StatsLen implements Metric: hyp length, ref length, 4 counts, 4 totals.
func (m *MultiBLEU) StatsLen() int { return 10 }

func (m *MultiBLEU) signature(nrefs int) signature {
	return signature{{"nrefs", nrefsValue(nrefs)}, {"case", caseValue(m.lowercase)},
		{"tok", "none"}, {"impl", "multi-bleu.perl"}}
}

// SegmentStats implements Metric. Unlike SacreBLEU, multi-bleu.perl keeps
// empty references (they count as length 0), so segmentRefs is not used.
func (m *MultiBLEU) SegmentStats(hyps []string, refs [][]string) ([][]float64, string, error) {
	if len(refs) == 0 {
		return nil, "", ErrNoReferences
	}
	for k, s := range refs {
		if len(s) != len(hyps) {
			return nil, "", &LengthError{Stream: k, RefSegments: len(s), HypSegments: len(hyps)}
		}
	}
	out := make([][]float64, len(hyps))
	for i, h := range hyps {
		segRefs := make([][]string, len(refs))
		for k := range refs {
			segRefs[k] = m.words(refs[k][i])
		}
		out[i] = m.segmentStats(m.words(h), segRefs)
	}
	return out, m.signature(len(refs)).String(), nil
}

func (m *MultiBLEU) words(s string) []string {
	if m.lowercase {
		s = asciiLower(s)
	}
	return strings.FieldsFunc(s, isASCIISpace)
}

func (m *MultiBLEU) segmentStats(hyp []string, refs [][]string) []float64 {
	refMax := map[string]int{}
	closestDiff, closestLen := 9999, 9999 // multi-bleu.perl's initial values
	for _, r := range refs {
		d := len(hyp) - len(r)
		if d < 0 {
			d = -d
		}
		if d < closestDiff {
			closestDiff, closestLen = d, len(r)
		} else if d == closestDiff && len(r) < closestLen {
			closestLen = len(r)
		}
		for g, c := range ngramCounts(r, 4) {
			refMax[g] = max(refMax[g], c)
		}
	}
	st := make([]float64, 10)
	st[0], st[1] = float64(len(hyp)), float64(closestLen)
	for g, c := range ngramCounts(hyp, 4) {
		n := ngramOrder(g) - 1
		st[6+n] += float64(c)
		st[2+n] += float64(min(c, refMax[g]))
	}
	return st
}

// ScoreStats implements Metric.
func (m *MultiBLEU) ScoreStats(total []float64) float64 { return m.fromStats(total, 0).Score }

func (m *MultiBLEU) fromStats(st []float64, nrefs int) MultiBLEUScore {
	s := MultiBLEUScore{Precisions: make([]float64, 4), SysLen: int(st[0]), RefLen: int(st[1]),
		NRefs: nrefs, sig: m.signature(nrefs), BP: 1}
	sum := 0.0
	for n := 0; n < 4; n++ {
		p := 0.0
		if st[6+n] > 0 {
			p = st[2+n] / st[6+n]
		}
		s.Precisions[n] = 100 * p
		sum += myLog(p)
	}
	if s.RefLen == 0 {
		return s // the script prints BLEU = 0 and exits
	}
	if s.SysLen < s.RefLen {
		// The script dies dividing by zero on an empty hypothesis file;
		// we report BP = 0 instead.
		s.BP = brevityPenalty(st[0], st[1])
	}
	s.Score = 100 * (s.BP * exp(sum/4)) // 100*$bleu, as the script prints
	return s
}

// Corpus scores a corpus.
func (m *MultiBLEU) Corpus(hyps []string, refs [][]string) (MultiBLEUScore, error) {
	stats, _, err := m.SegmentStats(hyps, refs)
	if err != nil {
		return MultiBLEUScore{}, err
	}
	return m.fromStats(sumStats(stats, 10), len(refs)), nil
}

// CorpusMultiBLEU is NewMultiBLEU(lowercase).Corpus(hyps, refs).
func CorpusMultiBLEU(hyps []string, refs [][]string, lowercase bool) (MultiBLEUScore, error) {
	return NewMultiBLEU(lowercase).Corpus(hyps, refs)
}

func isASCIISpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v'
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
