package model

import (
	"fmt"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

func deepIncrementalModels(t *testing.T) map[string]Incremental {
	t.Helper()
	ms := map[string]Incremental{}
	for name, set := range map[string][]string{
		"msc position":    {"arch=msc"},
		"msc pooled add":  {"arch=msc", "deep.context_mode=pooled", "deep.fusion=add"},
		"msc ffn post":    {"arch=msc", "deep.context=ffn", "encoder_norm=post", "decoder_norm=post"},
		"msc no context":  {"arch=msc", "deep.context=none"},
		"dlcl pre":        {"arch=dlcl"},
		"dlcl post":       {"arch=dlcl", "encoder_norm=post", "decoder_norm=post"},
		"dlcl enc only":   {"arch=dlcl", "deep.dlcl_decoder=false"},
		"transparent pre": {"arch=transparent", "deep.weight_dropout=0.3"},
	} {
		c := tinyDeep("msc", NormPre)
		c.DModel, c.FFN, c.Heads = 16, 32, 4
		c.SrcVocab, c.TgtVocab = 30, 30
		if err := c.Override(set); err != nil {
			t.Fatal(err)
		}
		m, ok := mustNew(t, c).(Incremental)
		if !ok {
			t.Fatalf("%s does not implement Incremental", name)
		}
		ms[name] = m
	}
	return ms
}

func fullDeepLogits(m Model, src []int32, b, s int, tgt []int32, tl int) []float32 {
	g := engine.NewInference()
	enc := m.Encode(g, src, b, s, Collect{})
	return append([]float32(nil), m.Decode(g, enc, tgt, tl, Collect{}).Logits.Data...)
}

// Step-by-step decoding must reproduce the teacher-forced decoder at every
// position, with a padded source, then keep doing so after beams branch.
func TestDeepIncrementalMatchesFullDecode(t *testing.T) {
	src := []int32{4, 5, 6, 7, 2, 8, 9, 2, 0, 0}
	tgt := []int32{2, 11, 12, 13, 14, 2, 15, 16, 17, 18}
	const b, s, tl = 2, 5, 5
	for name, m := range deepIncrementalModels(t) {
		v := m.Config().TgtVocab
		want := fullDeepLogits(m, src, b, s, tgt, tl)
		encG, g := engine.NewInference(), engine.NewInference()
		st := m.StartDecoding(encG, m.Encode(encG, src, b, s, Collect{}), 3, tl+1, nil)
		encG.Reset() // the state must own what it needs
		for step := 0; step < tl; step++ {
			logits := m.Step(g, st, []int32{tgt[step], tgt[tl+step]})
			for i := 0; i < b; i++ {
				assertClose(t, fmt.Sprintf("%s step %d row %d", name, step, i),
					logits.Data[i*v:(i+1)*v], want[(i*tl+step)*v:(i*tl+step+1)*v])
			}
			g.Reset()
		}
		// Branch sentence 1 into two rows and drop sentence 0.
		st.Reorder([]int{1, 1})
		logits := m.Step(g, st, []int32{20, 21})
		for row, next := range []int32{20, 21} {
			seq := append(append([]int32(nil), tgt[tl:]...), next)
			w := fullDeepLogits(m, []int32{8, 9, 2}, 1, 3, seq, tl+1)
			assertClose(t, fmt.Sprintf("%s after reorder row %d", name, row), logits.Data[row*v:(row+1)*v], w[tl*v:])
		}
	}
}
