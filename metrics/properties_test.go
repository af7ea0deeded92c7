package metrics

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// corpusScorers gives each metric's corpus score, for property tests.
func corpusScorers(t *testing.T) map[string]func(h []string, r [][]string) float64 {
	t.Helper()
	out := map[string]func(h []string, r [][]string) float64{}
	metrics := []Metric{}
	for _, tok := range TokenizerNames() {
		b, _ := NewBLEU(BLEUOptions{Tokenize: tok})
		metrics = append(metrics, b)
	}
	for _, o := range []CHRFOptions{{}, {WordOrder: 2}, {EpsSmoothing: true}, {Whitespace: true}} {
		c, _ := NewCHRF(o)
		metrics = append(metrics, c)
	}
	metrics = append(metrics, NewMultiBLEU(false))
	for _, v := range []string{Rouge1, Rouge2, RougeL} {
		// ROUGE-1.5.5's ASCII tokenisation leaves the Chinese line without
		// tokens (score 0), so the properties use whitespace tokens.
		r, _ := NewROUGE(v, ROUGEOptions{Whitespace: true})
		metrics = append(metrics, r)
	}
	for i, m := range metrics {
		m := m
		out[fmt.Sprintf("%d:%s", i, m.Name())] = func(h []string, r [][]string) float64 {
			st, _, err := m.SegmentStats(h, r)
			if err != nil {
				t.Fatal(err)
			}
			return m.ScoreStats(sumStats(st, m.StatsLen()))
		}
	}
	return out
}

var propHyps = []string{
	"The cat sat on the mat, didn't it?",
	"Producția de zahăr va fi exprimată în zahăr alb.",
	"我爱 北京 天安门。", // several whitespace tokens, so ROUGE-2 has bigrams
	"Prices rose 3.5% to $1,200 in 2019.",
	"A short one",
}

func TestPropertyIdenticalIs100(t *testing.T) {
	for name, score := range corpusScorers(t) {
		if got := score(propHyps, [][]string{propHyps}); !near(got, 100, 1e-9) {
			t.Errorf("%s: identical corpus scores %v", name, got)
		}
	}
}

func TestPropertyEmptyHypothesisIsZero(t *testing.T) {
	empty := make([]string, len(propHyps))
	for name, score := range corpusScorers(t) {
		if got := score(empty, [][]string{propHyps}); got != 0 {
			t.Errorf("%s: empty hypotheses score %v", name, got)
		}
	}
}

func TestPropertyPermutationInvariant(t *testing.T) {
	refs, a, _ := synthCorpus(40, 0.6, 0)
	refs2, _, _ := synthCorpus(40, 0, 0)
	perm := rand.New(rand.NewPCG(3, 4)).Perm(len(a))
	pa, pr, pr2 := make([]string, len(a)), make([]string, len(a)), make([]string, len(a))
	for i, j := range perm {
		pa[i], pr[i], pr2[i] = a[j], refs[j], refs2[j]
	}
	for name, score := range corpusScorers(t) {
		x, y := score(a, [][]string{refs, refs2}), score(pa, [][]string{pr, pr2})
		// Summation order changes with the permutation, so allow rounding.
		if !near(x, y, 1e-9) {
			t.Errorf("%s: %v vs permuted %v", name, x, y)
		}
	}
}
