package backendtest

import (
	"fmt"

	"github.com/strata-nmt/strata/engine"
)

// rand returns a tensor of uniform values in [-1, 1) that needs a gradient.
func rand(seed uint64, shape ...int) *engine.Tensor {
	t := engine.NewTensor(shape...)
	engine.Uniform(t, -1, 1, engine.NewRNG(seed))
	t.SetRequiresGrad(true)
	return t
}

func inputs(shapes ...[]int) func() []*engine.Tensor {
	return func() []*engine.Tensor {
		ts := make([]*engine.Tensor, len(shapes))
		for i, s := range shapes {
			ts[i] = rand(uint64(i+1), s...)
		}
		return ts
	}
}

func sh(d ...int) []int { return d }

// ids returns n token ids below v, every fifth one pad (when pad ≥ 0).
func ids(n, v int, pad int32) []int32 {
	r := engine.NewRNG(11)
	out := make([]int32, n)
	for i := range out {
		out[i] = int32(r.IntN(v))
		if pad >= 0 && i%5 == 4 {
			out[i] = pad
		}
	}
	return out
}

// Cases are the suite's op cases. Shapes have odd widths, so that vector
// kernels run their tails, and some are large enough to be split over
// threads.
func Cases() []Case {
	var cs []Case
	two := inputs(sh(67, 700), sh(67, 700))
	binary := map[string]func(g *engine.Graph, a, b *engine.Tensor) *engine.Tensor{
		"Add": (*engine.Graph).Add, "Sub": (*engine.Graph).Sub, "Mul": (*engine.Graph).Mul,
	}
	for _, name := range []string{"Add", "Sub", "Mul"} {
		f := binary[name]
		cs = append(cs, Case{name, TolElem, two, func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return f(g, in[0], in[1]) }})
	}
	one := inputs(sh(67, 700))
	unary := []struct {
		name string
		tol  Tol
		f    func(g *engine.Graph, x *engine.Tensor) *engine.Tensor
	}{
		{"ReLU", TolElem, (*engine.Graph).ReLU},
		{"Sigmoid", TolFunc, (*engine.Graph).Sigmoid},
		{"Tanh", TolFunc, (*engine.Graph).Tanh},
		{"Scale", TolElem, func(g *engine.Graph, x *engine.Tensor) *engine.Tensor { return g.Scale(x, -1.7) }},
		{"OneMinus", TolElem, (*engine.Graph).OneMinus},
		{"Sum", TolFunc, (*engine.Graph).Sum},
		{"Mean", TolFunc, (*engine.Graph).Mean},
		{"Softmax", TolRow, (*engine.Graph).Softmax},
		{"LogSoftmax", TolRow, (*engine.Graph).LogSoftmax},
		{"LayerNorm/none", TolRow, func(g *engine.Graph, x *engine.Tensor) *engine.Tensor { return g.LayerNorm(x, nil, nil) }},
	}
	for _, u := range unary {
		f := u.f
		cs = append(cs, Case{u.name, u.tol, one, func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return f(g, in[0]) }})
	}
	cs = append(cs,
		Case{"LayerNorm", TolRow, inputs(sh(67, 259), sh(259), sh(259)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.LayerNorm(in[0], in[1], in[2]) }},
		Case{"LayerNorm/gain", TolRow, inputs(sh(5, 33), sh(33)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.LayerNorm(in[0], in[1], nil) }},
		Case{"Dropout", TolElem, one,
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.Dropout(in[0], 0.3) }},
		Case{"Embed", TolElem, inputs(sh(50, 37)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor {
				return g.Embed(in[0], ids(120, 50, -1), 2.5)
			}},
		Case{"AddPositions", TolElem, inputs(sh(4*9, 38)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor {
				return g.AddPositions(in[0], ids(4*9, 50, 1), 9, 1, 3)
			}},
		Case{"LabelSmoothedCE", TolRow, inputs(sh(41, 301)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor {
				return g.LabelSmoothedCE(in[0], ids(41, 301, 0), 0.1, 0).Loss
			}},
	)
	cs = append(cs,
		Case{"AddDropout", TolElem, two,
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.AddDropout(in[0], in[1], 0.3) }},
		Case{"ConcatCols", TolElem, inputs(sh(40, 7), sh(40, 300), sh(40, 1)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor {
				return g.ConcatCols(in[0], in[1], in[2], in[0])
			}},
		Case{"SliceCols", TolElem, one,
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.SliceCols(in[0], 13, 500) }},
		Case{"GatherRows", TolElem, inputs(sh(9, 130)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor {
				return g.GatherRows(in[0], []int{3, 0, 8, 3, 3, 1})
			}},
		Case{"LogMeanExp", TolFunc, inputs(sh(20, 501), sh(20, 501), sh(20, 501)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.LogMeanExp(in...) }},
		Case{"WeightedSum", TolFunc, inputs(sh(60, 600), sh(60, 600), sh(60, 600), sh(5)),
			func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.WeightedSum(in[:3], in[3], 1) }},
	)
	for _, l := range []struct{ n, in, out int }{{6, 37, 19}, {70, 200, 67}, {3, 1100, 5}} {
		cs = append(cs,
			Case{fmt.Sprintf("Linear/%dx%dx%d", l.n, l.in, l.out), TolProduct, inputs(sh(l.n, l.in), sh(l.out, l.in), sh(l.out)),
				func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.Linear(in[0], in[1], in[2]) }},
			Case{fmt.Sprintf("LinearReLU/%dx%dx%d", l.n, l.in, l.out), TolProduct, inputs(sh(l.n, l.in), sh(l.out, l.in), sh(l.out)),
				func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.LinearReLU(in[0], in[1], in[2]) }},
			Case{fmt.Sprintf("Linear/nobias/%dx%dx%d", l.n, l.in, l.out), TolProduct, inputs(sh(l.n, l.in), sh(l.out, l.in)),
				func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.Linear(in[0], in[1], nil) }})
	}
	cs = append(cs, Case{"OutputLinear", TolProduct, inputs(sh(13, 37), sh(101, 37)),
		func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.OutputLinear(in[0], in[1]) }})
	cs = append(cs, attentionCases()...)
	cs = append(cs, addNormCases()...)
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			m, k, n := 33, 45, 29
			as, bs := sh(m, k), sh(k, n)
			if ta {
				as = sh(k, m)
			}
			if tb {
				bs = sh(n, k)
			}
			cs = append(cs, Case{fmt.Sprintf("MatMul/ta=%v,tb=%v", ta, tb), TolProduct, inputs(as, bs),
				func(g *engine.Graph, in []*engine.Tensor) *engine.Tensor { return g.MatMul(in[0], in[1], ta, tb) }})
		}
	}
	return cs
}
