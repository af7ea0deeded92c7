package backendtest

import (
	"fmt"

	"github.com/strata-nmt/strata/engine"
)

// keyPad masks, per batch element bi, the last bi+1 of tk keys (all of
// them from the element whose index is allFrom on, when allFrom ≥ 0).
func keyPad(b, tk, allFrom int) []bool {
	pad := make([]bool, b*tk)
	for bi := 0; bi < b; bi++ {
		for j := 0; j < tk; j++ {
			pad[bi*tk+j] = j >= tk-bi-1 || (allFrom >= 0 && bi >= allFrom)
		}
	}
	return pad
}

// attnCase is one attention case: the query, key and value views are
// columns of the case's inputs (in[qi] from column qc, and so on).
type attnCase struct {
	name       string
	b, tq, tk  int
	o          engine.AttnOptions
	qi, ki, vi int
	qc, kc, vc int
	probs      bool // the output is the probabilities, not the context
}

func (a attnCase) build(g *engine.Graph, in []*engine.Tensor) *engine.Tensor {
	ctx, probs := g.Attention(engine.Cols{T: in[a.qi], Col: a.qc}, engine.Cols{T: in[a.ki], Col: a.kc},
		engine.Cols{T: in[a.vi], Col: a.vc}, a.b, a.tq, a.tk, a.o)
	if a.probs {
		return probs
	}
	return ctx
}

// attentionCases: self-attention through one fused [Q|K|V] tensor (the
// three views' gradients share its buffer), cross-attention with views
// that start past column 0, several heads of odd width, key padding,
// the causal mask with as many and with fewer queries than keys, dropout
// on the probabilities, a batch element whose keys are all masked, and
// head widths and key counts that run the CPU's attention tiles.
func attentionCases() []Case {
	const d = 36 // 4 heads of 9
	self := inputs(sh(3*11, 3*d))
	cross := inputs(sh(2*7, 18), sh(2*13, 20), sh(2*13, 15))
	tiles := inputs(sh(2*33, 80), sh(2*35, 80), sh(2*35, 80))
	cs := []attnCase{
		{name: "self", b: 3, tq: 11, tk: 11, o: engine.AttnOptions{Heads: 4, KeyPad: keyPad(3, 11, -1)}, kc: d, vc: 2 * d},
		{name: "self/causal/dropout", b: 3, tq: 11, tk: 11, o: engine.AttnOptions{Heads: 4, KeyPad: keyPad(3, 11, -1), Causal: true, Dropout: 0.2}, kc: d, vc: 2 * d},
		{name: "self/causal/probs", b: 3, tq: 11, tk: 11, o: engine.AttnOptions{Heads: 4, Causal: true}, kc: d, vc: 2 * d, probs: true},
		{name: "cross/dropout", b: 2, tq: 7, tk: 13, o: engine.AttnOptions{Heads: 3, KeyPad: keyPad(2, 13, -1), Dropout: 0.1}, qc: 3, ki: 1, kc: 5, vi: 2},
		{name: "cross/causal", b: 2, tq: 7, tk: 13, o: engine.AttnOptions{Heads: 5, Causal: true}, qc: 3, ki: 1, kc: 5, vi: 2},
		{name: "cross/allmasked", b: 2, tq: 7, tk: 13, o: engine.AttnOptions{Heads: 1, KeyPad: keyPad(2, 13, 1)}, qc: 3, ki: 1, kc: 5, vi: 2},
		{name: "tiles", b: 2, tq: 33, tk: 35, o: engine.AttnOptions{Heads: 2, KeyPad: keyPad(2, 35, -1)}, ki: 1, vi: 2},
		{name: "tiles/causal/dropout", b: 2, tq: 33, tk: 35, o: engine.AttnOptions{Heads: 2, KeyPad: keyPad(2, 35, -1), Causal: true, Dropout: 0.2}, ki: 1, vi: 2},
	}
	var out []Case
	for _, a := range cs {
		in := self
		switch {
		case a.tq == 7:
			in = cross
		case a.tq == 33:
			in = tiles
		}
		out = append(out, Case{"Attention/" + a.name, TolProduct, in, a.build})
	}
	return out
}

// addNormCases: AddDropoutNorm with both outputs feeding the result (a
// pre-norm stack's residual stream and next input), the norm alone
// (post-norm) and the residual alone, with and without dropout, on rows
// of whole mask words (the fused kernel) and of odd width, with and
// without gain and bias.
func addNormCases() []Case {
	outs := []struct {
		name string
		f    func(g *engine.Graph, y, n *engine.Tensor) *engine.Tensor
	}{
		{"both", func(g *engine.Graph, y, n *engine.Tensor) *engine.Tensor { return g.ConcatCols(y, n) }},
		{"norm", func(_ *engine.Graph, _, n *engine.Tensor) *engine.Tensor { return n }},
		{"residual", func(_ *engine.Graph, y, _ *engine.Tensor) *engine.Tensor { return y }},
	}
	var cs []Case
	for _, cols := range []int{288, 259} {
		for _, p := range []float32{0, 0.3} {
			for _, o := range outs {
				f := o.f
				cs = append(cs, Case{fmt.Sprintf("AddDropoutNorm/%s/%d/p=%g", o.name, cols, p), TolRow,
					inputs(sh(67, cols), sh(67, cols), sh(cols), sh(cols)),
					func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor {
						y, n := g.AddDropoutNorm(in[0], in[1], p, in[2], in[3])
						return f(g, y, n)
					}})
			}
		}
	}
	for _, cols := range []int{64, 33} {
		cs = append(cs, Case{fmt.Sprintf("AddDropoutNorm/noaffine/%d", cols), TolRow, inputs(sh(9, cols), sh(9, cols)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor {
				y, n := g.AddDropoutNorm(in[0], in[1], 0.2, nil, nil)
				return g.ConcatCols(y, n)
			}})
	}
	return cs
}
