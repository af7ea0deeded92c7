package decode

import (
	"fmt"
	"math"
	"testing"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// An ensemble's beam search must score every returned token with the log
// of the mean of the members' probabilities, each member teacher-forced on
// the hypothesis: both members' states have to follow every reordering.
func TestEnsembleScoresAreMeanOfMemberProbabilities(t *testing.T) {
	a, b := tinyModel(t, model.NormPost, 3), tinyModel(t, model.NormPre, 9)
	eosBias(a, 2)
	eosBias(b, 2.5)
	srcs := randomSources(7, 4)
	o := testOptions(4)
	prefix := []int32{data.DecoderStart, 5}
	s, err := NewEnsembleSearcher([]model.Model{a, b}, o)
	if err != nil {
		t.Fatal(err)
	}
	single := search(t, a, o, srcs, prefix)
	differ := false
	for i, hyps := range s.Search(srcs, prefix) {
		tgts, xs := make([][]int32, len(hyps)), make([][]int32, len(hyps))
		for k, h := range hyps {
			tgts[k], xs[k] = h.Tokens, srcs[i]
		}
		sa, err := Score(engine.NewInference(), a, xs, prefix, tgts)
		if err != nil {
			t.Fatal(err)
		}
		sb, _ := Score(engine.NewInference(), b, xs, prefix, tgts)
		for k, h := range hyps {
			for j := range h.Tokens {
				want := math.Log((math.Exp(-float64(sa[k].NLL[j])) + math.Exp(-float64(sb[k].NLL[j]))) / 2)
				if got := float64(h.Positional[j]); math.Abs(got-want) > 1e-4 {
					t.Fatalf("sentence %d hyp %d token %d: ensemble log-prob %.6f, mean of members' probabilities %.6f", i, k, j, got, want)
				}
			}
		}
		differ = differ || fmt.Sprint(hyps[0].Tokens) != fmt.Sprint(single[i][0].Tokens)
	}
	if !differ {
		t.Fatal("the ensemble chose what its first member alone chose for every sentence: the second member had no effect")
	}
}

// Greedy search and sampling keep one row per hypothesis; their reordering
// goes through the same members.
func TestEnsembleGreedyEqualsBeamOne(t *testing.T) {
	a, b := tinyModel(t, model.NormPost, 3), tinyModel(t, model.NormPre, 9)
	eosBias(a, 2)
	srcs := randomSources(8, 5)
	o := testOptions(1)
	run := func(o Options) [][]Hypothesis {
		s, err := NewEnsembleSearcher([]model.Model{a, b}, o)
		if err != nil {
			t.Fatal(err)
		}
		return s.Search(srcs, startPrefix)
	}
	beam := run(o)
	o.Greedy = true
	greedy := run(o)
	for i := range srcs {
		sameHyps(t, fmt.Sprintf("sentence %d", i), greedy[i], beam[i])
	}
}

func TestEnsembleRejectsMismatchedVocabularies(t *testing.T) {
	a := tinyModel(t, model.NormPre, 1)
	cfg := a.Config()
	cfg.SrcVocab++
	cfg.TgtVocab++
	b, err := model.New(cfg, 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewEnsembleSearcher([]model.Model{a, b}, testOptions(2)); err == nil {
		t.Fatal("an ensemble of models with different vocabularies was accepted")
	}
}
