package model

import (
	"github.com/strata-nmt/strata/engine"
)

// Incremental decoding for the deep architectures. MSC and DLCL reuse the
// Transformer's step-indexed self-attention cache (transformerState); MSC
// adds each decoder layer's projected context memory. Transparent attention
// needs nothing of its own: its decoder is the Transformer's, reading the
// mixtures in enc.Memories, so the promoted methods are already right.

// mscState is the Transformer's decoder state plus the context keys and
// values of every decoder layer.
type mscState struct {
	*transformerState
	ctx    [][]float32 // per layer: context K|V, (B·S or B) × 2D; nil entries without context
	ctxLen int         // keys per sentence: S (position mode) or 1 (pooled)
}

// StartDecoding implements Incremental.
func (m *MSC) StartDecoding(g *engine.Graph, enc *EncoderOut, maxRows, maxLen int, reuse DecoderState) DecoderState {
	st, _ := reuse.(*mscState)
	if st == nil {
		st = &mscState{}
	}
	st.transformerState = newTransformerState(g, st.transformerState, enc, maxRows, maxLen, len(m.Dec), m.cfg.DModel)
	st.ctx = grow(st.ctx, len(m.Dec))
	for l, layer := range m.Dec {
		st.mem[l] = ownCopy(g, st.mem[l], func() *engine.Tensor { return layer.Cross.Memory(g, enc.Memories[l]) })
		if layer.Ctx == nil {
			st.ctx[l] = st.ctx[l][:0]
			continue
		}
		c := m.contextFor(enc, l)
		st.ctxLen = c.Len
		st.ctx[l] = ownCopy(g, st.ctx[l], func() *engine.Tensor { return layer.Ctx.Memory(g, c) })
	}
	return st
}

// Step implements Incremental.
func (m *MSC) Step(g *engine.Graph, state DecoderState, tokens []int32) *engine.Tensor {
	st := state.(*mscState)
	ts := st.transformerState
	n, t := ts.rows, ts.len
	checkStep(ts, tokens)
	ts.index(n, t)
	d := m.cfg.DModel
	x := embedTokens(g, &m.cfg, m.Emb, m.Emb.Tgt, tokens, 1, t)
	for l, layer := range m.Dec {
		x = stepLayer(g, func() *engine.Tensor {
			y := stepSelfAttention(g, layer.DecoderLayer, ts, l, x)
			y = layer.CrossSub.Apply(g, y, func(h *engine.Tensor) *engine.Tensor {
				ah := stepAttend(g, layer.Cross, h, ts.memory(l, d))
				if layer.Ctx == nil {
					return ah
				}
				ac := stepAttend(g, layer.Ctx.Attn, h, st.context(l, d, m.cfg.Deep.ContextMode == ContextPooled))
				return layer.Ctx.fuse(g, ah, ac)
			})
			return layer.FFNSub.Apply(g, y, func(h *engine.Tensor) *engine.Tensor { return layer.FFN.Apply(g, h) })
		})
	}
	ts.len++
	return decoderTop(g, &m.cfg, m.DecLN, m.Emb, x)
}

// context is decoder layer l's projected context memory as attention
// keys: the source positions of each row's sentence (padded as the source),
// or its one pooled row.
func (st *mscState) context(l, d int, pooled bool) engine.KVBlocks {
	kv := engine.KVBlocks{Data: st.ctx[l], LD: 2 * d, VCol: d, TK: st.ctxLen, Block: st.block}
	if !pooled {
		kv.Pad = st.memPad
	}
	return kv
}

// Step implements Incremental for DLCL: each layer's input is the learned
// combination, at the current position, of the outputs below it — the
// combination is position-wise, so one step needs only this step's
// outputs. StartDecoding is the Transformer's (same caches and memories).
func (m *DLCL) Step(g *engine.Graph, state DecoderState, tokens []int32) *engine.Tensor {
	if m.Dec == nil {
		return m.Transformer.Step(g, state, tokens)
	}
	st := state.(*transformerState)
	n, t := st.rows, st.len
	checkStep(st, tokens)
	st.index(n, t)
	d := m.cfg.DModel
	x := m.embed(g, m.Emb.Tgt, tokens, 1, t)
	x = m.Dec.run(g, x, len(m.Transformer.Dec), func(l int, in *engine.Tensor) *engine.Tensor {
		layer := m.Transformer.Dec[l]
		y := stepSelfAttention(g, layer, st, l, in)
		y = layer.CrossSub.Apply(g, y, func(h *engine.Tensor) *engine.Tensor {
			return stepAttend(g, layer.Cross, h, st.memory(l, d))
		})
		return layer.FFNSub.Apply(g, y, func(h *engine.Tensor) *engine.Tensor { return layer.FFN.Apply(g, h) })
	})
	st.len++
	return decoderTop(g, &m.cfg, m.DecLN, m.Emb, x)
}

var (
	_ Incremental = (*MSC)(nil)
	_ Incremental = (*DLCL)(nil)
	_ Incremental = (*Transparent)(nil)
)
