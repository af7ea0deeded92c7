package model

import (
	"github.com/strata-nmt/strata/engine"
)

// ContextFusion is MSC's feature fusion (Eq. 12-13): a second attention,
// over the context C, next to a layer's own attention, combined by
//
//	gate: g ⊙ Attn_h + (1 - g) ⊙ Attn_c,  g = σ(W1·Attn_h + W2·Attn_c + b)
//	add:  Attn_h + Attn_c                  (Table 5's ablation)
//
// The residual and dropout are the Sublayer's, around the fused output.
// W1 and W2 are stored side by side as gate.weight (D × 2D) so the gate is
// one GEMM on [Attn_h; Attn_c].
type ContextFusion struct {
	Attn CrossAttention
	Gate Linear // zero value for addition
}

func newContextFusion(b *builder, prefix string) *ContextFusion {
	f := &ContextFusion{Attn: newCrossAttention(b, prefix+".context_attn")}
	if b.cfg.Deep.Fusion == FusionGate {
		d := b.cfg.DModel
		f.Gate = b.linear(prefix+".context_gate", 2*d, d, 1, true)
	}
	return f
}

// Memory projects the context into keys and values for this layer.
func (f *ContextFusion) Memory(g *engine.Graph, c contextMemory) *engine.Tensor {
	return f.Attn.Memory(g, c.T)
}

// Apply attends queries h (B·Tq×D) to the context and fuses the result with
// the layer's own attention output ah. It returns the fused output and the
// context-attention probabilities.
func (f *ContextFusion) Apply(g *engine.Graph, h, ah, kv *engine.Tensor, c contextMemory, b, tq int) (*engine.Tensor, *engine.Tensor) {
	ac, p := f.Attn.Apply(g, h, kv, b, tq, c.Len, c.Pad)
	return f.fuse(g, ah, ac), p
}

func (f *ContextFusion) fuse(g *engine.Graph, ah, ac *engine.Tensor) *engine.Tensor {
	if f.Gate.W == nil {
		return g.Add(ah, ac)
	}
	gate := g.Sigmoid(f.Gate.Apply(g, g.ConcatCols(ah, ac)))
	// g⊙ah + (1-g)⊙ac = ac + g⊙(ah - ac)
	return g.Add(ac, g.Mul(gate, g.Sub(ah, ac)))
}
