package model

import "github.com/strata-nmt/strata/engine"

// Forward runs decoder layer n with teacher forcing over t steps: masked
// self-attention, then the encoder attention over block n (mem) fused with
// the attention over C^n, then the FFN (Eq. 11, 13).
func (l MSCDecoderLayer) Forward(g *engine.Graph, x, mem *engine.Tensor, c contextMemory, b, t, s int, memPad []bool) (y, selfP, crossP *engine.Tensor) {
	if l.Ctx == nil {
		return l.DecoderLayer.Forward(g, x, mem, b, t, s, memPad)
	}
	x, xn := l.SelfSub.ApplyNext(g, x, nil, func(h *engine.Tensor) *engine.Tensor {
		var o *engine.Tensor
		o, selfP = l.Self.Apply(g, h, b, t, nil, true)
		return o
	}, &l.CrossSub)
	kv, kvc := l.Cross.Memory(g, mem), l.Ctx.Memory(g, c)
	x, xn = l.CrossSub.ApplyNext(g, x, xn, func(h *engine.Tensor) *engine.Tensor {
		var ah *engine.Tensor
		ah, crossP = l.Cross.Apply(g, h, kv, b, t, s, memPad)
		fused, _ := l.Ctx.Apply(g, h, ah, kvc, c, b, t)
		return fused
	}, &l.FFNSub)
	y, _ = l.FFNSub.ApplyNext(g, x, xn, func(h *engine.Tensor) *engine.Tensor { return l.FFN.Apply(g, h) }, nil)
	return y, selfP, crossP
}

// Decode implements Model (full recomputation; see docs/models-deep.md for
// incremental decoding).
func (m *MSC) Decode(g *engine.Graph, enc *EncoderOut, tgtIn []int32, t int, opt Collect) *DecoderOut {
	b := enc.B
	x := embedTokens(g, &m.cfg, m.Emb, m.Emb.Tgt, tgtIn, t, 0)
	out := &DecoderOut{}
	for i, l := range m.Dec {
		var sp, cp *engine.Tensor
		x, sp, cp = l.Forward(g, x, enc.Memories[i], m.contextFor(enc, i), b, t, enc.S, enc.KeyPad)
		out.record(opt, x, sp, cp)
	}
	out.Logits = decoderTop(g, &m.cfg, m.DecLN, m.Emb, x)
	return out
}
