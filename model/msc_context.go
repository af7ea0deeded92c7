package model

import (
	"math"

	"github.com/strata-nmt/strata/engine"
)

// ContextCell is the contextual-collaboration function Q of the MSC paper
// (Eq. 9): C^n = Q(C^{n-1}, B_e^n). One cell is shared by all blocks.
type ContextCell interface {
	Step(g *engine.Graph, c, x *engine.Tensor) *engine.Tensor
}

// GRUCell is Q as a GRU cell (Cho et al. 2014) with PyTorch's gate layout:
//
//	r  = σ(W_ir x + b_ir + W_hr c + b_hr)
//	z  = σ(W_iz x + b_iz + W_hz c + b_hz)
//	n  = tanh(W_in x + b_in + r ⊙ (W_hn c + b_hn))
//	c' = (1 - z) ⊙ n + z ⊙ c
//
// Weights are stored stacked [r; z; n] as weight_ih / weight_hh (3D×D), so
// each side is one GEMM.
type GRUCell struct {
	IH, HH Linear
	D      int
}

func newGRUCell(b *builder, prefix string, d int) *GRUCell {
	// PyTorch initialises every GRU weight and bias from U(-1/√D, 1/√D).
	a := 1 / math.Sqrt(float64(d))
	p := func(name string, shape ...int) *engine.Tensor {
		t := b.params.New(prefix+"."+name, shape...)
		engine.Uniform(t, -a, a, b.rng)
		return t
	}
	return &GRUCell{
		IH: Linear{W: p("weight_ih", 3*d, d), B: p("bias_ih", 3*d)},
		HH: Linear{W: p("weight_hh", 3*d, d), B: p("bias_hh", 3*d)},
		D:  d,
	}
}

// Step implements ContextCell; c and x are (rows × D) with the same rows.
func (q *GRUCell) Step(g *engine.Graph, c, x *engine.Tensor) *engine.Tensor {
	d := q.D
	gi, gh := q.IH.Apply(g, x), q.HH.Apply(g, c)
	r := g.Sigmoid(g.Add(g.SliceCols(gi, 0, d), g.SliceCols(gh, 0, d)))
	z := g.Sigmoid(g.Add(g.SliceCols(gi, d, 2*d), g.SliceCols(gh, d, 2*d)))
	n := g.Tanh(g.Add(g.SliceCols(gi, 2*d, 3*d), g.Mul(r, g.SliceCols(gh, 2*d, 3*d))))
	// (1-z)⊙n + z⊙c written as n + z⊙(c - n): one op fewer.
	return g.Add(n, g.Mul(z, g.Sub(c, n)))
}

// FFNCell is Table 5's ablation "Q as FFN": C^n = FFN([C^{n-1}; B_e^n]), a
// two-layer ReLU network (hidden size ffn_dim) on the concatenation, with no
// gating and no recurrence-specific structure.
type FFNCell struct {
	FC1, FC2 Linear
}

func newFFNCell(b *builder, prefix string) *FFNCell {
	d, f := b.cfg.DModel, b.cfg.FFN
	return &FFNCell{
		FC1: b.linear(prefix+".fc1", 2*d, f, 1, true),
		FC2: b.linear(prefix+".fc2", f, d, 1, true),
	}
}

// Step implements ContextCell.
func (q *FFNCell) Step(g *engine.Graph, c, x *engine.Tensor) *engine.Tensor {
	return q.FC2.Apply(g, g.ReLU(q.FC1.Apply(g, g.ConcatCols(c, x))))
}

// contextMemory is what the context attentions read: C^n as a sequence
// (position mode: B·S rows, the source padding mask) or one row per
// sentence (pooled mode: Len 1, nothing to mask).
type contextMemory struct {
	T   *engine.Tensor
	Len int
	Pad []bool
}

// meanPool averages the non-padding rows of x (B·S×D) per sentence into a
// B×D tensor, as a product with a constant pooling matrix so that the
// gradient flows back through the existing MatMul kernel.
func meanPool(g *engine.Graph, x *engine.Tensor, b, s int, pad []bool) *engine.Tensor {
	p := g.Scratch(b * b * s)
	clear(p)
	for i := 0; i < b; i++ {
		n := 0
		for j := 0; j < s; j++ {
			if !pad[i*s+j] {
				n++
			}
		}
		if n == 0 {
			continue
		}
		for j := 0; j < s; j++ {
			if !pad[i*s+j] {
				p[i*b*s+i*s+j] = 1 / float32(n)
			}
		}
	}
	return g.MatMul(g.Const(p, b, b*s), x, false, false)
}
