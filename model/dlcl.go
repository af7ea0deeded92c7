package model

import (
	"fmt"

	"github.com/strata-nmt/strata/engine"
)

// DLCL is the Transformer with dynamic linear combination of layers (Wang et
// al. 2019): the input of layer l+1 is a learned weighted sum of the outputs
// of every earlier layer, the embedding included,
//
//	pre-norm:  x_{l+1} = W[l][0]·y_0 + Σ_{1≤k≤l} W[l][k] · LN_k(y_k)
//	post-norm: x_{l+1} = LN_l(Σ_{k≤l} W[l][k] · y_k)     (l ≥ 1; x_1 = W[0][0]·y_0)
//
// with y_0 the embedding and row L giving the stack's output. As in the
// authors' implementation, the embedding is stored unnormalised (their
// paper's equation writes LN(y_0) too). W is lower
// triangular, initialised to uniform averages (W[l][k] = 1/(l+1)); the
// entries above the diagonal are stored but never read, so their gradient
// stays zero. Swap-pre stacks combine like pre-norm ones.
type DLCL struct {
	*Transformer
	Enc, Dec *LayerHistory // Dec is nil when deep.dlcl_decoder is off
}

// LayerHistory is one stack's combination weights and norms.
type LayerHistory struct {
	W     *engine.Tensor // (L+1)×(L+1)
	Norms []LayerNorm
	Pre   bool
}

func init() {
	architectures[ArchDLCL] = func(c Config, seed uint64) (Model, error) { return NewDLCL(c, seed), nil }
}

// NewDLCL builds a DLCL model; cfg must be valid.
func NewDLCL(cfg Config, seed uint64) *DLCL {
	t := NewTransformer(cfg, seed)
	// The combination parameters come after the Transformer's, from a
	// generator of their own (they are initialised deterministically).
	b := &builder{params: t.params, rng: engine.NewRNG(seed + 1), cfg: &t.cfg}
	m := &DLCL{Transformer: t}
	m.Enc = newLayerHistory(b, "encoder.history", cfg.EncoderLayers, cfg.EncoderNorm != NormPost)
	if cfg.Deep.DLCLDecoder {
		m.Dec = newLayerHistory(b, "decoder.history", cfg.DecoderLayers, cfg.DecoderNorm != NormPost)
	}
	return m
}

func newLayerHistory(b *builder, prefix string, layers int, pre bool) *LayerHistory {
	h := &LayerHistory{W: b.params.New(prefix+".weight", layers+1, layers+1), Pre: pre}
	for l := 0; l <= layers; l++ {
		for k := 0; k <= l; k++ {
			h.W.Data[l*(layers+1)+k] = 1 / float32(l+1)
		}
	}
	// L norms: pre-norm normalises the stored outputs y_1..y_L, post-norm
	// the sums that feed layers 2..L and the output.
	for i := 0; i < layers; i++ {
		h.Norms = append(h.Norms, b.layerNorm(fmt.Sprintf("%s.layer_norms.%d", prefix, i), b.cfg.DModel))
	}
	return h
}

// run drives a stack of len(rows)-1 layers from input x: layer(i, in) runs
// layer i. It returns the combined output (row L).
func (h *LayerHistory) run(g *engine.Graph, x *engine.Tensor, layers int, layer func(i int, in *engine.Tensor) *engine.Tensor) *engine.Tensor {
	hist := make([]*engine.Tensor, 0, layers+1)
	push := func(k int, y *engine.Tensor) {
		if h.Pre && k > 0 {
			y = h.Norms[k-1].Apply(g, y)
		}
		hist = append(hist, y)
	}
	pop := func(row int) *engine.Tensor {
		s := g.WeightedSum(hist, h.W, row*(layers+1))
		if !h.Pre && row > 0 {
			s = h.Norms[row-1].Apply(g, s)
		}
		return s
	}
	push(0, x)
	for i := 0; i < layers; i++ {
		push(i+1, layer(i, pop(i)))
	}
	return pop(layers)
}

// Encode implements Model.
func (m *DLCL) Encode(g *engine.Graph, src []int32, b, s int, opt Collect) *EncoderOut {
	out := &EncoderOut{B: b, S: s, KeyPad: PadMask(src, m.cfg.PadID)}
	x := m.embed(g, m.Emb.Src, src, s, 0)
	out.Embedded = x
	x = m.Enc.run(g, x, len(m.Transformer.Enc), func(i int, in *engine.Tensor) *engine.Tensor {
		return encoderLayer(g, opt, func() *engine.Tensor {
			y, p := m.Transformer.Enc[i].Forward(g, in, b, s, out.KeyPad)
			collect(out, y, p, opt)
			return y
		})
	})
	if m.cfg.EncoderFinalNorm() {
		x = m.EncLN.Apply(g, x)
	}
	out.Out = x
	out.Memories = make([]*engine.Tensor, len(m.Transformer.Dec))
	for i := range out.Memories {
		out.Memories[i] = x
	}
	return out
}

// Decode implements Model.
func (m *DLCL) Decode(g *engine.Graph, enc *EncoderOut, tgtIn []int32, t int, opt Collect) *DecoderOut {
	if m.Dec == nil {
		return m.Transformer.Decode(g, enc, tgtIn, t, opt)
	}
	b := enc.B
	x := m.embed(g, m.Emb.Tgt, tgtIn, t, 0)
	out := &DecoderOut{}
	x = m.Dec.run(g, x, len(m.Transformer.Dec), func(i int, in *engine.Tensor) *engine.Tensor {
		y, sp, cp := m.Transformer.Dec[i].Forward(g, in, enc.Memories[i], b, t, enc.S, enc.KeyPad)
		out.record(opt, y, sp, cp)
		return y
	})
	out.Logits = decoderTop(g, &m.cfg, m.DecLN, m.Emb, x)
	return out
}
