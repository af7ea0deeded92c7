package model

import (
	"fmt"

	"github.com/strata-nmt/strata/engine"
)

// MSC is the multiscale collaborative deep model of Wei et al. (ACL 2020):
// an encoder of N blocks (M_n layers each) and a decoder of N layers, where
// decoder layer n attends to encoder block n (block-scale collaboration) and
// every layer fuses an attention over a context C^n that a cell Q carries
// bottom-up over the blocks (contextual collaboration). docs/models-deep.md
// has the equations and the decisions the paper leaves open.
type MSC struct {
	cfg    Config
	params *engine.Params
	Emb    Embeddings
	Blocks []MSCBlock
	Q      ContextCell // nil without contextual collaboration
	Dec    []MSCDecoderLayer
	DecLN  LayerNorm
}

// MSCBlock is M_n encoder layers. LN, when set, normalises the block output
// B_e^n where it leaves the residual stream (towards the decoder and Q):
// pre-norm stacks keep an unnormalised residual stream, and the standard
// model's final encoder norm becomes a norm per exit point.
type MSCBlock struct {
	Layers []MSCEncoderLayer
	LN     *LayerNorm
}

// MSCEncoderLayer is a Transformer encoder layer whose self-attention is
// fused with an attention over C^{n-1} (Eq. 12); Ctx is nil when the
// encoder has no context attention.
type MSCEncoderLayer struct {
	EncoderLayer
	Ctx *ContextFusion
}

// MSCDecoderLayer is a Transformer decoder layer whose encoder attention is
// fused with an attention over C^n (Eq. 13).
type MSCDecoderLayer struct {
	DecoderLayer
	Ctx *ContextFusion
}

func init() {
	architectures[ArchMSC] = func(c Config, seed uint64) (Model, error) { return NewMSC(c, seed) }
}

// NewMSC builds an MSC model; cfg must be valid.
func NewMSC(cfg Config, seed uint64) (*MSC, error) {
	sizes, err := cfg.blockSizes()
	if err != nil {
		return nil, err
	}
	b := &builder{params: engine.NewParams(), rng: engine.NewRNG(seed), cfg: &cfg}
	m := &MSC{cfg: cfg, params: b.params}
	m.Emb = newEmbeddings(b)
	d := cfg.Deep
	hasCtx := d.Context != ContextNone
	layer := 0
	for n, size := range sizes {
		var blk MSCBlock
		for l := 0; l < size; l++ {
			layer++
			p := fmt.Sprintf("encoder.blocks.%d.layers.%d", n, l)
			el := MSCEncoderLayer{EncoderLayer: newEncoderLayer(b, p, layer != cfg.NoResidualLayer)}
			if hasCtx && d.ContextEncAttn {
				el.Ctx = newContextFusion(b, p)
			}
			blk.Layers = append(blk.Layers, el)
		}
		// The block's output leaves the stack when it is the top, feeds
		// its own decoder layer, or feeds Q.
		exits := n == len(sizes)-1 || d.BlockScale || hasCtx
		if cfg.EncoderFinalNorm() && exits {
			ln := b.layerNorm(fmt.Sprintf("encoder.blocks.%d.layer_norm", n), cfg.DModel)
			blk.LN = &ln
		}
		m.Blocks = append(m.Blocks, blk)
	}
	switch d.Context {
	case ContextGRU:
		m.Q = newGRUCell(b, "encoder.context_gru", cfg.DModel)
	case ContextFFN:
		m.Q = newFFNCell(b, "encoder.context_ffn")
	}
	for i := 0; i < cfg.DecoderLayers; i++ {
		p := fmt.Sprintf("decoder.layers.%d", i)
		dl := MSCDecoderLayer{DecoderLayer: newDecoderLayer(b, p)}
		if hasCtx {
			dl.Ctx = newContextFusion(b, p)
		}
		m.Dec = append(m.Dec, dl)
	}
	if cfg.DecoderFinalNorm() {
		m.DecLN = b.layerNorm("decoder.layer_norm", cfg.DModel)
	}
	return m, nil
}

// Config implements Model.
func (m *MSC) Config() Config { return m.cfg }

// Params implements Model.
func (m *MSC) Params() *engine.Params { return m.params }

// Forward runs the layer on x (B·S×D) with context c = C^{n-1}.
func (l MSCEncoderLayer) Forward(g *engine.Graph, x *engine.Tensor, c contextMemory, b, s int, pad []bool) (*engine.Tensor, *engine.Tensor) {
	if l.Ctx == nil {
		return l.EncoderLayer.Forward(g, x, b, s, pad)
	}
	kv := l.Ctx.Memory(g, c)
	var probs *engine.Tensor
	x, xn := l.AttnSub.ApplyNext(g, x, nil, func(h *engine.Tensor) *engine.Tensor {
		var ah *engine.Tensor
		ah, probs = l.Attn.Apply(g, h, b, s, pad, false)
		fused, _ := l.Ctx.Apply(g, h, ah, kv, c, b, s)
		return fused
	}, &l.FFNSub)
	x, _ = l.FFNSub.ApplyNext(g, x, xn, func(h *engine.Tensor) *engine.Tensor { return l.FFN.Apply(g, h) }, nil)
	return x, probs
}

// Encode implements Model. Memories[n] is block n's output (the top block
// for every layer when block_scale is off) and Context[n] is C^{n+1} in the
// paper's 1-based numbering, what decoder layer n attends to besides.
func (m *MSC) Encode(g *engine.Graph, src []int32, b, s int, opt Collect) *EncoderOut {
	out := &EncoderOut{B: b, S: s, KeyPad: PadMask(src, m.cfg.PadID)}
	x := embedTokens(g, &m.cfg, m.Emb, m.Emb.Src, src, s, 0)
	out.Embedded = x
	var c contextMemory
	if m.Q != nil {
		c = m.initialContext(g, x, b, s, out.KeyPad)
	}
	blocks := make([]*engine.Tensor, len(m.Blocks))
	for n, blk := range m.Blocks {
		for _, l := range blk.Layers {
			x = encoderLayer(g, opt, func() *engine.Tensor {
				y, p := l.Forward(g, x, c, b, s, out.KeyPad)
				collect(out, y, p, opt)
				return y
			})
		}
		bn := x
		if blk.LN != nil {
			bn = blk.LN.Apply(g, x)
		}
		blocks[n] = bn
		if m.Q != nil {
			c = m.step(g, c, bn, b, s, out.KeyPad)
			out.Context = append(out.Context, c.T)
		}
	}
	out.Out = blocks[len(blocks)-1]
	out.Memories = make([]*engine.Tensor, len(m.Dec))
	for i := range out.Memories {
		if m.cfg.Deep.BlockScale {
			out.Memories[i] = blocks[i]
		} else {
			out.Memories[i] = out.Out
		}
	}
	return out
}

// initialContext is C^0, the source embeddings (Eq. 9).
func (m *MSC) initialContext(g *engine.Graph, x *engine.Tensor, b, s int, pad []bool) contextMemory {
	if m.cfg.Deep.ContextMode == ContextPooled {
		return contextMemory{T: meanPool(g, x, b, s, pad), Len: 1}
	}
	return contextMemory{T: x, Len: s, Pad: pad}
}

// step is C^n = Q(C^{n-1}, B_e^n): position-wise, or on pooled block output.
func (m *MSC) step(g *engine.Graph, c contextMemory, bn *engine.Tensor, b, s int, pad []bool) contextMemory {
	if m.cfg.Deep.ContextMode == ContextPooled {
		bn = meanPool(g, bn, b, s, pad)
	}
	c.T = m.Q.Step(g, c.T, bn)
	return c
}

// contextFor is the context memory decoder layer i reads.
func (m *MSC) contextFor(enc *EncoderOut, i int) contextMemory {
	if len(enc.Context) == 0 {
		return contextMemory{}
	}
	if m.cfg.Deep.ContextMode == ContextPooled {
		return contextMemory{T: enc.Context[i], Len: 1}
	}
	return contextMemory{T: enc.Context[i], Len: enc.S, Pad: enc.KeyPad}
}
