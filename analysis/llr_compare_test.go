package analysis

import (
	"math"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/metrics"
)

// llrOf builds an LLR result of one encoder and one decoder layer on one
// split of two directions, whose sentence s gets right(d, s, probe) of its
// tokens right (4 encoder and 2 decoder tokens per sentence).
func llrOf(sentences int, right func(d, s, p int) int) *LLRResult {
	r := &LLRResult{EncoderLayers: 1, DecoderLayers: 1}
	sp := LLRSplitResult{Name: ZeroShot}
	for k, d := range []Direction{{"de", "fr"}, {"fr", "de"}} {
		dr := LLRDirection{Direction: d, Sentences: sentences}
		correct := make([]int, 4)
		for s := 0; s < sentences; s++ {
			dr.SentenceTokens = append(dr.SentenceTokens, [2]int{4, 2})
			row := make([]int, 4)
			for p := range row {
				row[p] = right(k, s, p)
				correct[p] += row[p]
			}
			dr.SentenceCorrect = append(dr.SentenceCorrect, row)
		}
		dr.EncTokens, dr.DecTokens = 4*sentences, 2*sentences
		for l := 0; l < 2; l++ {
			n := dr.EncTokens
			if l == 1 {
				n = dr.DecTokens
			}
			dr.Source = append(dr.Source, ratio(correct[2*l], n))
			dr.Target = append(dr.Target, ratio(correct[2*l+1], n))
		}
		sp.Directions = append(sp.Directions, dr)
	}
	sp.Source = meanLayers(sp.Directions, 2, func(d LLRDirection) []Ratio { return d.Source })
	sp.Target = meanLayers(sp.Directions, 2, func(d LLRDirection) []Ratio { return d.Target })
	r.Splits = []LLRSplitResult{sp}
	return r
}

func TestCompareLLR(t *testing.T) {
	// the baseline gets sentence-dependent shares right; the system one
	// more encoder token of every sentence for the source probe, and the
	// same as the baseline elsewhere
	base := llrOf(50, func(d, s, p int) int { return (s + d + p) % 3 })
	sys := llrOf(50, func(d, s, p int) int {
		if p == 0 {
			return (s+d)%3 + 1
		}
		return (s + d + p) % 3
	})
	c, err := CompareLLR(base, sys, ZeroShot, metrics.BootstrapOptions{Samples: 300})
	if err != nil {
		t.Fatal(err)
	}
	src := c.Layers[0].Source
	// one more of 4 tokens in every sentence: exactly +0.25 on every draw
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	if !near(src.Value, 0.25) || !near(src.Lower, 0.25) || !near(src.Upper, 0.25) {
		t.Errorf("L1 source difference %+v, want exactly +0.25", src)
	}
	// every draw on the real difference's side: the smallest two-sided
	// p-value, 2/(N+1); no difference at all: p = 1
	if !near(src.PValue, 2.0/301) || c.Test() != "two-sided paired bootstrap, 300 resamples" {
		t.Errorf("L1 source p = %v (%s), want 2/301", src.PValue, c.Test())
	}
	if p := c.Layers[0].Target.PValue; p != 1 {
		t.Errorf("no difference: p = %v, want 1", p)
	}
	want := float64(sys.Splits[0].Source[0] - base.Splits[0].Source[0])
	if math.Abs(src.Value-want) > 1e-9 {
		t.Errorf("real difference %v, the split accuracies differ by %v", src.Value, want)
	}
	for l, d := range c.Layers {
		if l > 0 && (d.Source.Value != 0 || d.Source.Lower != 0 || d.Source.Upper != 0) || d.Target.Value != 0 || d.Target.Lower != 0 || d.Target.Upper != 0 {
			t.Errorf("layer %d: %+v, want no difference", l+1, d)
		}
	}
	// a system right on different sentences: an interval around a
	// difference that moves with the draws
	noisy := llrOf(50, func(d, s, p int) int { return (s*7 + d) % 5 % 3 })
	c, err = CompareLLR(base, noisy, ZeroShot, metrics.BootstrapOptions{Samples: 300})
	if err != nil {
		t.Fatal(err)
	}
	if d := c.Layers[0].Source; !(d.Lower < d.Value && d.Value < d.Upper) {
		t.Errorf("noisy difference %+v, want the value inside a non-empty interval", d)
	}
}

func TestCompareLLRRefuses(t *testing.T) {
	base := llrOf(10, func(d, s, p int) int { return 1 })
	old := llrOf(10, func(d, s, p int) int { return 1 })
	for k := range old.Splits[0].Directions {
		old.Splits[0].Directions[k].SentenceCorrect = nil
	}
	fewer := llrOf(8, func(d, s, p int) int { return 1 })
	for _, c := range []struct {
		sys   *LLRResult
		split string
		want  string
	}{
		{base, Supervised, "no split"},
		{old, ZeroShot, "no per-sentence counts"},
		{fewer, ZeroShot, "8 sentences"},
	} {
		if _, err := CompareLLR(base, c.sys, c.split, metrics.BootstrapOptions{Samples: 10}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}
