package decode

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

const testVocab = 30

// tinyModel is a random 2+2-layer d=16 model. Random weights rarely end a
// sentence early, so tests that need EOS use a bias on it (eosBias).
func tinyModel(t testing.TB, norm model.Norm, seed uint64) model.Model {
	t.Helper()
	cfg, _ := model.Preset("tiny")
	cfg.EncoderLayers, cfg.DecoderLayers, cfg.DModel, cfg.FFN, cfg.Heads = 2, 2, 16, 32, 4
	cfg.EncoderNorm, cfg.DecoderNorm = norm, norm
	cfg.SrcVocab, cfg.TgtVocab = testVocab, testVocab
	m, err := model.New(cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// eosBias scales the output embedding of EOS so that it becomes likely
// after a few steps: hypotheses then end at different lengths and the
// length penalty matters.
func eosBias(m model.Model, scale float32) {
	out := m.(*model.Transformer).Emb.Out
	d := out.Cols()
	for j := 0; j < d; j++ {
		out.Data[data.EOSID*d+j] *= scale
	}
}

func randomSources(n int, seed uint64) [][]int32 {
	r := rand.New(rand.NewPCG(seed, 1))
	srcs := make([][]int32, n)
	for i := range srcs {
		l := 2 + r.IntN(7)
		for j := 0; j < l; j++ {
			srcs[i] = append(srcs[i], int32(data.NumSpecial+r.IntN(testVocab-data.NumSpecial)))
		}
		srcs[i] = append(srcs[i], data.EOSID)
	}
	return srcs
}

func search(t testing.TB, m model.Model, o Options, srcs [][]int32, prefix []int32) [][]Hypothesis {
	t.Helper()
	s, err := NewSearcher(m, o)
	if err != nil {
		t.Fatal(err)
	}
	return s.Search(srcs, prefix)
}

func testOptions(beam int) Options {
	o := Defaults()
	o.Beam, o.NBest, o.MaxLenA, o.MaxLenB = beam, beam, 1, 4
	return o
}

var startPrefix = []int32{data.DecoderStart}

func sameHyps(t *testing.T, what string, got, want []Hypothesis) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d hypotheses, want %d", what, len(got), len(want))
	}
	for k := range got {
		if !slices.Equal(got[k].Tokens, want[k].Tokens) || math.Abs(got[k].Score-want[k].Score) > 1e-4 {
			t.Fatalf("%s: hypothesis %d is %v (%.6f), want %v (%.6f)", what, k, got[k].Tokens, got[k].Score, want[k].Tokens, want[k].Score)
		}
	}
}

func TestBeamOneEqualsGreedy(t *testing.T) {
	m := tinyModel(t, model.NormPost, 1)
	eosBias(m, 2.5)
	srcs := randomSources(12, 2)
	o := testOptions(1)
	beam := search(t, m, o, srcs, startPrefix)
	o.Greedy = true
	greedy := search(t, m, o, srcs, startPrefix)
	ended := 0
	for i := range srcs {
		sameHyps(t, fmt.Sprintf("sentence %d", i), beam[i], greedy[i])
		if len(greedy[i][0].Tokens) <= o.maxLen(len(srcs[i])) {
			ended++
		}
	}
	if ended == 0 {
		t.Fatal("no sentence ended before max_len: the test does not exercise EOS")
	}
}

// Every returned hypothesis must score, under teacher forcing, what the
// search summed for it: the incremental decoder, the candidate bookkeeping
// and the beam reordering all have to be right for this to hold.
func TestBeamScoresEqualTeacherForcedScores(t *testing.T) {
	for _, norm := range []model.Norm{model.NormPost, model.NormPre} {
		m := tinyModel(t, norm, 3)
		eosBias(m, 2)
		srcs := randomSources(9, 4)
		o := testOptions(4)
		o.LenPen = 0.6
		prefix := []int32{data.DecoderStart, 5} // a forced target tag
		res := search(t, m, o, srcs, prefix)
		for i, hyps := range res {
			if len(hyps) != o.Beam {
				t.Fatalf("%s sentence %d: %d hypotheses, want %d", norm, i, len(hyps), o.Beam)
			}
			tgts := make([][]int32, len(hyps))
			xs := make([][]int32, len(hyps))
			for k, h := range hyps {
				tgts[k], xs[k] = h.Tokens, srcs[i]
			}
			sc, err := Score(engine.NewInference(), m, xs, prefix, tgts)
			if err != nil {
				t.Fatal(err)
			}
			for k, h := range hyps {
				if math.Abs(sc[k].LogProb-h.LogProb) > 1e-4 {
					t.Fatalf("%s sentence %d hyp %d %v: search log-prob %.6f, teacher-forced %.6f", norm, i, k, h.Tokens, h.LogProb, sc[k].LogProb)
				}
				for j, nll := range sc[k].NLL {
					if math.Abs(float64(nll+h.Positional[j])) > 1e-4 {
						t.Fatalf("%s sentence %d hyp %d token %d: %.6f vs teacher-forced %.6f", norm, i, k, j, h.Positional[j], -nll)
					}
				}
				want := h.LogProb / math.Pow(float64(len(h.Tokens)), o.LenPen)
				if math.Abs(want-h.Score) > 1e-9 {
					t.Fatalf("score %.6f is not log-prob / length^lenpen = %.6f", h.Score, want)
				}
				if k > 0 && h.Score > hyps[k-1].Score {
					t.Fatalf("hypotheses not sorted: %.6f after %.6f", h.Score, hyps[k-1].Score)
				}
			}
		}
	}
}

// A larger length penalty favours longer hypotheses: the best hypothesis's
// length never decreases as lenpen grows, and somewhere it increases.
func TestLengthPenaltyOrdering(t *testing.T) {
	m := tinyModel(t, model.NormPost, 5)
	eosBias(m, 2)
	srcs := randomSources(16, 6)
	var prev []int
	grew := false
	for _, lp := range []float64{0, 1, 3} {
		o := testOptions(5)
		o.LenPen = lp
		res := search(t, m, o, srcs, startPrefix)
		for i, hyps := range res {
			n := len(hyps[0].Tokens)
			if prev != nil && n < prev[i] {
				t.Fatalf("lenpen %g: sentence %d best length %d, shorter than %d at a smaller penalty", lp, i, n, prev[i])
			}
			if prev != nil && n > prev[i] {
				grew = true
			}
			// Ranking follows the penalised score.
			for k := 1; k < len(hyps); k++ {
				if hyps[k].Score > hyps[k-1].Score {
					t.Fatalf("lenpen %g: not sorted by penalised score", lp)
				}
			}
			if prev == nil {
				prev = make([]int, len(res))
			}
			prev[i] = n
		}
	}
	if !grew {
		t.Fatal("no sentence got a longer best hypothesis under a larger length penalty")
	}
}

func TestBatchEqualsOneByOne(t *testing.T) {
	m := tinyModel(t, model.NormPre, 7)
	eosBias(m, 2)
	srcs := randomSources(10, 8)
	o := testOptions(3)
	batch := search(t, m, o, srcs, startPrefix)
	for i, x := range srcs {
		one := search(t, m, o, [][]int32{x}, startPrefix)
		sameHyps(t, fmt.Sprintf("sentence %d", i), batch[i], one[0])
	}
}

// The searcher gives the same results whether the decoder runs
// incrementally or recomputes whole prefixes each step.
func TestIncrementalEqualsRecompute(t *testing.T) {
	m := tinyModel(t, model.NormSwapPre, 9)
	eosBias(m, 2)
	srcs := randomSources(6, 10)
	o := testOptions(3)
	o.NoRepeatNgram = 2
	s, _ := NewSearcher(m, o)
	if !s.Incremental() {
		t.Fatal("the Transformer should decode incrementally")
	}
	inc := s.Search(srcs, startPrefix)
	s.ForceRecompute()
	full := s.Search(srcs, startPrefix)
	for i := range srcs {
		sameHyps(t, fmt.Sprintf("sentence %d", i), inc[i], full[i])
	}
}

func TestMaxAndMinLength(t *testing.T) {
	m := tinyModel(t, model.NormPost, 11)
	srcs := randomSources(5, 12)
	o := testOptions(2)
	o.MaxLenA, o.MaxLenB = 0, 3
	for i, hyps := range search(t, m, o, srcs, startPrefix) {
		for _, h := range hyps {
			if len(h.Tokens) > 4 || h.Tokens[len(h.Tokens)-1] != data.EOSID {
				t.Fatalf("sentence %d: %v is longer than max_len 3 + EOS or does not end in EOS", i, h.Tokens)
			}
		}
	}
	eosBias(m, 4) // EOS would win at once
	o.MinLen = 2
	for i, hyps := range search(t, m, o, srcs, startPrefix) {
		for _, h := range hyps {
			if len(h.Tokens) < 3 {
				t.Fatalf("sentence %d: %v is shorter than min_len 2 + EOS", i, h.Tokens)
			}
		}
	}
}

func TestNoRepeatNgram(t *testing.T) {
	m := tinyModel(t, model.NormPost, 13)
	srcs := randomSources(8, 14)
	o := testOptions(3)
	o.MaxLenA, o.MaxLenB = 3, 10
	o.NoRepeatNgram = 2
	for i, hyps := range search(t, m, o, srcs, startPrefix) {
		for _, h := range hyps {
			seq := append(slices.Clone(startPrefix), h.Tokens...)
			seen := map[[2]int32]bool{}
			for j := 0; j+2 <= len(seq); j++ {
				k := [2]int32{seq[j], seq[j+1]}
				if seen[k] {
					t.Fatalf("sentence %d: bigram %v repeated in %v", i, k, seq)
				}
				seen[k] = true
			}
		}
	}
}

func TestUnknownPenalty(t *testing.T) {
	m := tinyModel(t, model.NormPost, 15)
	// Make <unk> the likeliest token everywhere.
	out := m.(*model.Transformer).Emb.Out
	d := out.Cols()
	copy(out.Data[data.UNKID*d:(data.UNKID+1)*d], out.Data[data.NumSpecial*d:(data.NumSpecial+1)*d])
	for j := 0; j < d; j++ {
		out.Data[data.UNKID*d+j] *= 3
	}
	srcs := randomSources(4, 16)
	o := testOptions(2)
	count := func(res [][]Hypothesis) int {
		n := 0
		for _, hyps := range res {
			for _, id := range hyps[0].Tokens {
				if id == data.UNKID {
					n++
				}
			}
		}
		return n
	}
	if count(search(t, m, o, srcs, startPrefix)) == 0 {
		t.Fatal("setup: <unk> was never chosen")
	}
	o.UnkPenalty = 100
	if n := count(search(t, m, o, srcs, startPrefix)); n != 0 {
		t.Fatalf("<unk> chosen %d times despite a penalty of 100", n)
	}
}

func TestOptionsValidate(t *testing.T) {
	o := Defaults()
	o.NBest = 6
	if o.Validate() == nil {
		t.Fatal("nbest above the beam size was accepted")
	}
	o = Defaults()
	o.Beam = 0
	if o.Validate() == nil {
		t.Fatal("beam 0 was accepted")
	}
	for _, bits := range []int{0, 7, 8} {
		o = Defaults()
		o.Int8Bits = bits
		if err := o.Validate(); err != nil {
			t.Fatalf("int8 activation width %d: %v", bits, err)
		}
	}
	o.Int8Bits = 6
	if o.Validate() == nil {
		t.Fatal("6-bit int8 activations were accepted")
	}
}
