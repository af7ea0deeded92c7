package model

import "github.com/strata-nmt/strata/engine"

// Batch is one training or scoring batch of right-padded id matrices.
type Batch struct {
	Src     []int32 // B×S
	TgtIn   []int32 // B×T decoder input (starts with the start token)
	TgtOut  []int32 // B×T targets (end with eos)
	B, S, T int
}

// Loss runs the model on a batch and returns fairseq's label-smoothed
// cross-entropy summed over non-pad target tokens.
func Loss(g *engine.Graph, m Model, bt Batch, smoothing float32) engine.CEResult {
	enc := m.Encode(g, bt.Src, bt.B, bt.S, Collect{})
	dec := m.Decode(g, enc, bt.TgtIn, bt.T, Collect{})
	return g.LabelSmoothedCE(dec.Logits, bt.TgtOut, smoothing, int32(m.Config().PadID))
}
