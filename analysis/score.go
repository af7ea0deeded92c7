package analysis

import (
	"github.com/strata-nmt/strata/langid"
	"github.com/strata-nmt/strata/metrics"
)

// Identifier identifies the language of a line; langid's fastText Model and
// its Fallback satisfy it (analysis needs only these two methods).
type Identifier interface {
	Predict(line string, k int, threshold float32) []langid.Prediction
	Name() string
}

// BLEUTokenizer is the SacreBLEU tokenizer the study uses for a target
// language: zh for Chinese, 13a otherwise.
func BLEUTokenizer(tgt string) string {
	if tgt == "zh" {
		return metrics.TokZh
	}
	return metrics.Tok13a
}

// Score computes BLEU, chrF and the off-target rate of hyps against refs in
// language tgt.
func Score(hyps, refs []string, tgt string, det Identifier) (Scores, error) {
	var s Scores
	bleu, err := metrics.CorpusBLEU(hyps, [][]string{refs}, metrics.BLEUOptions{Tokenize: BLEUTokenizer(tgt)})
	if err != nil {
		return s, err
	}
	chrf, err := metrics.CorpusCHRF(hyps, [][]string{refs}, metrics.CHRFOptions{})
	if err != nil {
		return s, err
	}
	s.BLEU, s.BLEUSignature = bleu.Score, bleu.Signature()
	s.CHRF, s.CHRFSignature = chrf.Score, chrf.Signature()
	s.Lines = len(hyps)
	s.Identified, s.OffTarget = OffTarget(hyps, tgt, det)
	s.RefLID = ReferenceLID(hyps, refs, tgt, det)
	return s, nil
}

// OffTarget identifies the language of every hypothesis (top-1 label) and
// returns the counts per identified language and the share not identified
// as tgt. A hypothesis with no prediction (empty output) counts as
// off-target under the key "".
func OffTarget(hyps []string, tgt string, det Identifier) (map[string]int, float64) {
	want := lidLabel(tgt)
	counts := map[string]int{}
	off := 0
	for _, h := range hyps {
		lang := identify(h, det)
		counts[lang]++
		if lang != want {
			off++
		}
	}
	if len(hyps) == 0 {
		return counts, 0
	}
	return counts, float64(off) / float64(len(hyps))
}

// OffTargetFlags marks each hypothesis that OffTarget counts as off-target.
func OffTargetFlags(hyps []string, tgt string, det Identifier) []bool {
	want := lidLabel(tgt)
	flags := make([]bool, len(hyps))
	for i, h := range hyps {
		flags[i] = identify(h, det) != want
	}
	return flags
}

// identify is the top-1 language of a line, "" when none is predicted.
func identify(line string, det Identifier) string {
	if p := det.Predict(line, 1, 0); len(p) > 0 {
		return p[0].Lang()
	}
	return ""
}

// Averages returns the unweighted means over supervised rows, zero-shot
// rows and (when any row has one) pivot translations of zero-shot rows.
func Averages(rows []DirectionResult) (sup, zs Average, piv *Average) {
	var p Average
	for _, r := range rows {
		if r.Kind == ZeroShot {
			zs.add(r.Scores)
			if r.Pivot != nil {
				p.add(*r.Pivot)
			}
		} else {
			sup.add(r.Scores)
		}
	}
	sup.finish()
	zs.finish()
	if p.Directions > 0 {
		p.finish()
		piv = &p
	}
	return sup, zs, piv
}

func (a *Average) add(s Scores) {
	switch {
	case a.Directions == 0 && s.RefLID != nil:
		a.RefLID = &RefLID{}
	case s.RefLID == nil:
		a.RefLID = nil
	}
	if a.RefLID != nil {
		a.RefLID.OffTarget += s.RefLID.OffTarget
		a.RefLID.HypOffTarget += s.RefLID.HypOffTarget
		a.RefLID.OnTargetLines += s.RefLID.OnTargetLines
	}
	a.Directions++
	a.BLEU += s.BLEU
	a.CHRF += s.CHRF
	a.OffTarget += s.OffTarget
}

func (a *Average) finish() {
	if a.Directions == 0 {
		return
	}
	n := float64(a.Directions)
	a.BLEU /= n
	a.CHRF /= n
	a.OffTarget /= n
	if a.RefLID != nil {
		a.RefLID.OffTarget /= n
		a.RefLID.HypOffTarget /= n
	}
}
