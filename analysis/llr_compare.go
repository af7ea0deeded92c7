package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/strata-nmt/strata/metrics"
)

// LLRLayerDiff is one layer's accuracy difference, system minus baseline,
// for the source and the target language (in [−1, 1]); a side without
// tokens in either system is NaN.
type LLRLayerDiff struct {
	Source, Target metrics.Difference
}

// LLRComparison is CompareLLR's answer for one split.
type LLRComparison struct {
	Split   string
	Samples int
	Seed    uint64
	Method  metrics.PValueMethod
	Layers  []LLRLayerDiff
}

// CompareLLR tests, layer by layer, how much a system's LLR accuracy
// differs from a baseline's on one split (the paper's Figure 2 contrast,
// PostNorm against PreNorm): every resample draws each direction's test
// sentences with replacement within that direction, the same draws for
// both systems, and recomputes the split's accuracies as LLR does (tokens
// pooled within a direction, directions averaged). The interval is the
// 2.5% and 97.5% order statistics of the resampled differences, the
// p-value the one opt asks for (two-sided by default). Tokens of
// one sentence move together, which is why sentences and not tokens are
// resampled: a binomial interval over tokens would be too narrow. Both
// results need their per-sentence counts (llr.json written since they are
// recorded) on the same directions and lines.
func CompareLLR(base, sys *LLRResult, split string, opt metrics.BootstrapOptions) (*LLRComparison, error) {
	b, s := base.split(split), sys.split(split)
	if err := comparable(b, s, split, base.EncoderLayers == sys.EncoderLayers); err != nil {
		return nil, err
	}
	samples, seed := opt.Resolve()
	layers := len(b.Source)
	ne := base.EncoderLayers
	probes := 2 * layers
	// diffs[p][n]: resample n's difference for probe p
	diffs := make([][]float64, probes)
	for p := range diffs {
		diffs[p] = make([]float64, samples)
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	picks := make([][]int, len(b.Directions))
	for n := 0; n < samples; n++ {
		for k, d := range b.Directions {
			picks[k] = picks[k][:0]
			for i := 0; i < d.Sentences; i++ {
				picks[k] = append(picks[k], rng.IntN(d.Sentences))
			}
		}
		bs, ss := splitAccuracy(b.Directions, picks, probes, ne), splitAccuracy(s.Directions, picks, probes, ne)
		for p := range diffs {
			diffs[p][n] = ss[p] - bs[p]
		}
	}
	all := make([][]int, len(b.Directions))
	for k, d := range b.Directions {
		for i := 0; i < d.Sentences; i++ {
			all[k] = append(all[k], i)
		}
	}
	bReal, sReal := splitAccuracy(b.Directions, all, probes, ne), splitAccuracy(s.Directions, all, probes, ne)
	out := &LLRComparison{Split: split, Samples: samples, Seed: seed, Method: opt.PValue, Layers: make([]LLRLayerDiff, layers)}
	for l := 0; l < layers; l++ {
		out.Layers[l].Source = percentileDiff(opt.PValue, sReal[2*l]-bReal[2*l], diffs[2*l])
		out.Layers[l].Target = percentileDiff(opt.PValue, sReal[2*l+1]-bReal[2*l+1], diffs[2*l+1])
	}
	return out, nil
}

// comparable says why two systems' splits cannot be compared sentence by
// sentence, nil when they can.
func comparable(b, s *LLRSplitResult, split string, sameEncoder bool) error {
	if b == nil || s == nil {
		return fmt.Errorf("no split %q in both LLR results", split)
	}
	if len(b.Directions) != len(s.Directions) || len(b.Source) != len(s.Source) || !sameEncoder {
		return fmt.Errorf("split %s: %d directions and %d layers against %d and %d (or other encoder depths): compare probes of the same setup",
			split, len(s.Directions), len(s.Source), len(b.Directions), len(b.Source))
	}
	for k := range b.Directions {
		bd, sd := b.Directions[k], s.Directions[k]
		if bd.Direction != sd.Direction || bd.Sentences != sd.Sentences {
			return fmt.Errorf("split %s: direction %d is %s (%d sentences) against %s (%d)", split, k+1,
				sd.Direction, sd.Sentences, bd.Direction, bd.Sentences)
		}
		if len(bd.SentenceCorrect) != bd.Sentences || len(sd.SentenceCorrect) != sd.Sentences {
			return fmt.Errorf("split %s, %s: no per-sentence counts (llr.json written before they were recorded; run analyze llr again)",
				split, sd.Direction)
		}
	}
	return nil
}

// split is the named split, nil when there is none.
func (r *LLRResult) split(name string) *LLRSplitResult {
	for i := range r.Splits {
		if r.Splits[i].Name == name {
			return &r.Splits[i]
		}
	}
	return nil
}

// splitAccuracy is every probe's accuracy on the picked sentences of each
// direction: tokens pooled within a direction, directions without tokens
// left out of the mean, as meanLayers does.
func splitAccuracy(ds []LLRDirection, picks [][]int, probes, ne int) []float64 {
	sum, n := make([]float64, probes), make([]int, probes)
	for k, d := range ds {
		for p := 0; p < probes; p++ {
			side := 0
			if p >= 2*ne {
				side = 1
			}
			c, t := 0, 0
			for _, i := range picks[k] {
				c += d.SentenceCorrect[i][p]
				t += d.SentenceTokens[i][side]
			}
			if t > 0 {
				sum[p] += float64(c) / float64(t)
				n[p]++
			}
		}
	}
	for p := range sum {
		if n[p] == 0 {
			sum[p] = math.NaN()
			continue
		}
		sum[p] /= float64(n[p])
	}
	return sum
}

// Test names the test, e.g. "two-sided paired bootstrap, 1000 resamples".
func (c *LLRComparison) Test() string { return c.Method.Describe(c.Samples) }

// percentileDiff is the real difference with the 2.5%/97.5% order
// statistics of the resampled ones and the method's p-value (NaN
// resamples, where a side had no tokens, are left out).
func percentileDiff(m metrics.PValueMethod, real float64, resampled []float64) metrics.Difference {
	var d []float64
	for _, v := range resampled {
		if !math.IsNaN(v) {
			d = append(d, v)
		}
	}
	if math.IsNaN(real) || len(d) == 0 {
		nan := math.NaN()
		return metrics.Difference{Value: nan, Lower: nan, Upper: nan, PValue: nan}
	}
	p := metrics.PairedPValue(m, real, d)
	sort.Float64s(d)
	lo := len(d) / 40
	return metrics.Difference{Value: real, Lower: d[lo], Upper: d[len(d)-lo-1], PValue: p}
}
