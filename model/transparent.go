package model

import "github.com/strata-nmt/strata/engine"

// Transparent is the Transformer with transparent attention (Bapna et al.
// 2018): decoder layer j attends to its own combination of the embedding
// output and every encoder layer's output,
//
//	M_j = Σ_{i=0..L} softmax(W[j])_i · h_i,
//
// W (decoder layers × (L+1)) initialised to zeros, i.e. uniform weights,
// with dropout (deep.weight_dropout) on the softmax weights in training.
// In pre-norm stacks the layer outputs are unnormalised residual streams, so
// each mixture passes through the encoder's final norm (the one the plain
// model applies to its top layer); post-norm outputs are already normalised.
type Transparent struct {
	*Transformer
	W *engine.Tensor
}

func init() {
	architectures[ArchTransparent] = func(c Config, seed uint64) (Model, error) { return NewTransparent(c, seed), nil }
}

// NewTransparent builds a transparent-attention model; cfg must be valid.
func NewTransparent(cfg Config, seed uint64) *Transparent {
	t := NewTransformer(cfg, seed)
	return &Transparent{
		Transformer: t,
		W:           t.params.New("encoder.transparent.weight", cfg.DecoderLayers, cfg.EncoderLayers+1),
	}
}

// Encode implements Model.
func (m *Transparent) Encode(g *engine.Graph, src []int32, b, s int, opt Collect) *EncoderOut {
	out := &EncoderOut{B: b, S: s, KeyPad: PadMask(src, m.cfg.PadID)}
	x := m.embed(g, m.Emb.Src, src, s, 0)
	out.Embedded = x
	hs := []*engine.Tensor{x}
	for _, l := range m.Enc {
		x = encoderLayer(g, opt, func() *engine.Tensor {
			y, p := l.Forward(g, x, b, s, out.KeyPad)
			collect(out, y, p, opt)
			return y
		})
		hs = append(hs, x)
	}
	norm := m.cfg.EncoderFinalNorm()
	if norm {
		x = m.EncLN.Apply(g, x)
	}
	out.Out = x
	w := g.WeightDropout(g.Softmax(m.W), m.cfg.Deep.WeightDropout)
	out.Memories = make([]*engine.Tensor, len(m.Dec))
	for j := range out.Memories {
		mem := g.WeightedSum(hs, w, j*len(hs))
		if norm {
			mem = m.EncLN.Apply(g, mem)
		}
		out.Memories[j] = mem
	}
	return out
}
