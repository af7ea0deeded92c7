package engine

import (
	"fmt"
	"math"
	"testing"
)

// Finite-difference gradient checks.
//
// Tolerance argument: the forward pass runs in float32, so f(x±h) carries a
// relative rounding error of about 1e-7·|f|/h in the difference quotient.
// With h = 1e-2 on inputs of order 1 and outputs projected onto a random
// direction r (f = Σ r·y, summed in float64), that error is ~1e-4 of the
// gradient scale, while the truncation error of central differences is
// O(h²·f”') ≈ 1e-4. We therefore accept |analytic - numeric| ≤ 2e-3 +
// 2e-2·|numeric|, tight enough that a wrong sign, a missing term or a wrong
// scale (all ≥ 10% errors) fails.
const (
	fdStep   = 1e-2
	fdAbsTol = 2e-3
	fdRelTol = 2e-2
)

type buildFn func(g *Graph) *Tensor

// gradBackend is the backend gradCheck's graphs compute on.
var gradBackend = BackendCPU

// newGradGraph is a graph on gradBackend.
func newGradGraph(t *testing.T) *Graph {
	g := NewGraph(7)
	if err := g.SetBackend(gradBackend); err != nil {
		t.Fatal(err)
	}
	return g
}

// gradCheck compares analytic and numeric gradients of Σ r·build(g) with
// respect to every tensor in inputs (which must have SetRequiresGrad(true)).
// Each graph is created with the same seed so dropout masks repeat.
func gradCheck(t *testing.T, name string, inputs []*Tensor, build buildFn) {
	t.Helper()
	for _, in := range inputs {
		in.ZeroGrad()
	}
	g := newGradGraph(t)
	y := build(g)
	r := NewRNG(99)
	dir := make([]float32, y.Size())
	for i := range dir {
		dir[i] = float32(r.Float64()*2 - 1)
	}
	g.BackwardWith(y, dir)
	f := func() float64 {
		g := newGradGraph(t)
		y := build(g)
		var s float64
		for i, v := range y.Data {
			s += float64(v) * float64(dir[i])
		}
		return s
	}
	for ii, in := range inputs {
		step := max(1, len(in.Data)/40) // sample about 40 coordinates per input
		for j := 0; j < len(in.Data); j += step {
			orig := in.Data[j]
			in.Data[j] = orig + fdStep
			fp := f()
			in.Data[j] = orig - fdStep
			fm := f()
			in.Data[j] = orig
			num := (fp - fm) / (2 * fdStep)
			ana := float64(in.Grad[j])
			if math.Abs(ana-num) > fdAbsTol+fdRelTol*math.Abs(num) {
				t.Fatalf("%s: input %d (%s) element %d: analytic %.6g numeric %.6g", name, ii, in.Name, j, ana, num)
			}
		}
	}
}

func param(r *RNG, name string, shape ...int) *Tensor {
	t := NewTensor(shape...)
	t.Name = name
	Uniform(t, -1, 1, r)
	t.SetRequiresGrad(true)
	return t
}

func TestGradLinearAndMatMul(t *testing.T) {
	r := NewRNG(1)
	x, w, b := param(r, "x", 2, 3, 5), param(r, "w", 4, 5), param(r, "b", 4)
	gradCheck(t, "Linear", []*Tensor{x, w, b}, func(g *Graph) *Tensor { return g.Linear(x, w, b) })
	gradCheck(t, "Linear/nobias", []*Tensor{x, w}, func(g *Graph) *Tensor { return g.Linear(x, w, nil) })
	for _, ta := range []bool{false, true} {
		for _, tb := range []bool{false, true} {
			as, bs := []int{3, 4}, []int{4, 5}
			if ta {
				as = []int{4, 3}
			}
			if tb {
				bs = []int{5, 4}
			}
			a, bb := param(r, "a", as...), param(r, "b", bs...)
			gradCheck(t, fmt.Sprintf("MatMul ta=%v tb=%v", ta, tb), []*Tensor{a, bb},
				func(g *Graph) *Tensor { return g.MatMul(a, bb, ta, tb) })
		}
	}
}

func TestGradElementwise(t *testing.T) {
	r := NewRNG(2)
	a, b := param(r, "a", 3, 7), param(r, "b", 3, 7)
	cases := map[string]buildFn{
		"Add":      func(g *Graph) *Tensor { return g.Add(a, b) },
		"Sub":      func(g *Graph) *Tensor { return g.Sub(a, b) },
		"Mul":      func(g *Graph) *Tensor { return g.Mul(a, b) },
		"Scale":    func(g *Graph) *Tensor { return g.Scale(a, -1.5) },
		"OneMinus": func(g *Graph) *Tensor { return g.OneMinus(a) },
		"Sigmoid":  func(g *Graph) *Tensor { return g.Sigmoid(a) },
		"Tanh":     func(g *Graph) *Tensor { return g.Tanh(a) },
		"Sum":      func(g *Graph) *Tensor { return g.Sum(g.Mul(a, b)) },
		"Mean":     func(g *Graph) *Tensor { return g.Mean(g.Mul(a, a)) },
		"Dropout":  func(g *Graph) *Tensor { return g.Dropout(g.Mul(a, b), 0.3) },
		"Softmax":  func(g *Graph) *Tensor { return g.Softmax(a) },
		"LogSoftmax": func(g *Graph) *Tensor {
			return g.LogSoftmax(a)
		},
		"ConcatCols": func(g *Graph) *Tensor { return g.ConcatCols(a, g.Scale(b, 2), a) },
		"SliceCols":  func(g *Graph) *Tensor { return g.SliceCols(a, 2, 5) },
		"GatherRows": func(g *Graph) *Tensor { return g.GatherRows(a, []int{2, 0, 2}) },
		"Reshape":    func(g *Graph) *Tensor { return g.Tanh(g.Reshape(a, 7, 3)) },
	}
	for name, fn := range cases {
		gradCheck(t, name, []*Tensor{a, b}, fn)
	}
	// ReLU has a kink at 0; keep inputs away from it.
	c := param(r, "c", 4, 6)
	for i, v := range c.Data {
		if math.Abs(float64(v)) < 0.05 {
			c.Data[i] = 0.5
		}
	}
	gradCheck(t, "ReLU", []*Tensor{c}, func(g *Graph) *Tensor { return g.ReLU(c) })
}

func TestGradWeightedSum(t *testing.T) {
	r := NewRNG(3)
	xs := []*Tensor{param(r, "x0", 2, 5), param(r, "x1", 2, 5), param(r, "x2", 2, 5)}
	w := param(r, "w", 6)
	gradCheck(t, "WeightedSum", append(append([]*Tensor{}, xs...), w), func(g *Graph) *Tensor {
		return g.WeightedSum(xs, w, 2)
	})
	// softmax-normalised weights, as transparent attention uses them
	gradCheck(t, "WeightedSum(softmax)", append(append([]*Tensor{}, xs...), w), func(g *Graph) *Tensor {
		return g.WeightedSum(xs, g.Softmax(g.Reshape(w, 2, 3)), 3)
	})
}

func TestGradLayerNorm(t *testing.T) {
	r := NewRNG(4)
	x, gain, bias := param(r, "x", 5, 8), param(r, "gain", 8), param(r, "bias", 8)
	gradCheck(t, "LayerNorm", []*Tensor{x, gain, bias}, func(g *Graph) *Tensor { return g.LayerNorm(x, gain, bias) })
	gradCheck(t, "LayerNorm/noparams", []*Tensor{x}, func(g *Graph) *Tensor { return g.LayerNorm(x, nil, nil) })
}

func TestGradEmbedAndPositions(t *testing.T) {
	r := NewRNG(5)
	w := param(r, "emb", 10, 6)
	ids := []int32{4, 2, 0, 4, 9, 1, 0, 0} // B=2, T=4, pad=0
	gradCheck(t, "Embed+AddPositions", []*Tensor{w}, func(g *Graph) *Tensor {
		return g.AddPositions(g.Embed(w, ids, 2.5), ids, 4, 0, 0)
	})
}

func TestGradLabelSmoothedCE(t *testing.T) {
	r := NewRNG(6)
	z := param(r, "logits", 5, 9)
	targets := []int32{3, 0, 8, 1, 0} // two pad rows
	gradCheck(t, "LabelSmoothedCE", []*Tensor{z}, func(g *Graph) *Tensor {
		return g.LabelSmoothedCE(z, targets, 0.1, 0).Loss
	})
}

func TestGradAttention(t *testing.T) {
	r := NewRNG(8)
	const b, tq, tk, d = 2, 3, 4, 8
	pad := []bool{false, false, false, true, false, false, true, true}
	q, k, v := param(r, "q", b*tq, d), param(r, "k", b*tk, d), param(r, "v", b*tk, d)
	for _, o := range []AttnOptions{
		{Heads: 2},
		{Heads: 2, KeyPad: pad},
		{Heads: 4, KeyPad: pad, Dropout: 0.25},
	} {
		gradCheck(t, fmt.Sprintf("Attention %+v", o), []*Tensor{q, k, v}, func(g *Graph) *Tensor {
			ctx, _ := g.Attention(Cols{q, 0}, Cols{k, 0}, Cols{v, 0}, b, tq, tk, o)
			return ctx
		})
	}
	// self-attention through one fused [Q|K|V] tensor, causal
	qkv := param(r, "qkv", b*tk, 3*d)
	gradCheck(t, "Attention fused causal", []*Tensor{qkv}, func(g *Graph) *Tensor {
		ctx, _ := g.Attention(Cols{qkv, 0}, Cols{qkv, d}, Cols{qkv, 2 * d}, b, tk, tk,
			AttnOptions{Heads: 2, Causal: true, KeyPad: pad})
		return ctx
	})
}

// Shapes that run attention's assembly tiles (attngemm.go): 35 keys and
// head width 40 (32- and 8-column tiles plus Go tails), odd query counts,
// queries fewer than keys under the causal mask (a band offset of 2).
func TestGradAttentionTiles(t *testing.T) {
	r := NewRNG(9)
	const b, tq, tk, d = 2, 33, 35, 80
	pad := make([]bool, b*tk)
	pad[tk-1], pad[2*tk-3], pad[2*tk-1] = true, true, true
	q, k, v := param(r, "q", b*tq, d), param(r, "k", b*tk, d), param(r, "v", b*tk, d)
	for _, o := range []AttnOptions{
		{Heads: 2, KeyPad: pad},
		{Heads: 2, KeyPad: pad, Causal: true, Dropout: 0.2},
	} {
		gradCheck(t, fmt.Sprintf("Attention tiles %+v", o), []*Tensor{q, k, v}, func(g *Graph) *Tensor {
			ctx, _ := g.Attention(Cols{q, 0}, Cols{k, 0}, Cols{v, 0}, b, tq, tk, o)
			return ctx
		})
	}
	qkv := param(r, "qkv", b*tk, 3*d)
	gradCheck(t, "Attention tiles fused causal", []*Tensor{qkv}, func(g *Graph) *Tensor {
		ctx, _ := g.Attention(Cols{qkv, 0}, Cols{qkv, d}, Cols{qkv, 2 * d}, b, tk, tk,
			AttnOptions{Heads: 2, Causal: true, KeyPad: pad})
		return ctx
	})
}

func TestGradLogMeanExp(t *testing.T) {
	r := NewRNG(21)
	xs := []*Tensor{param(r, "x0", 3, 5), param(r, "x1", 3, 5), param(r, "x2", 3, 5)}
	gradCheck(t, "LogMeanExp", xs, func(g *Graph) *Tensor { return g.LogMeanExp(xs...) })
	gradCheck(t, "LogMeanExp(two)", xs[:2], func(g *Graph) *Tensor { return g.LogMeanExp(xs[0], xs[1]) })
	gradCheck(t, "LogMeanExp(one)", xs[:1], func(g *Graph) *Tensor { return g.LogMeanExp(xs[0]) })
}

// AddDropoutNorm's gradients through both outputs, the norm alone and the
// residual alone (the norm's gradient absent), with and without dropout,
// on rows of whole mask words (the fused kernel) and of odd width, with
// and without gain and bias.
func TestGradAddDropoutNorm(t *testing.T) {
	r := NewRNG(34)
	for _, cols := range []int{64, 19} {
		x, f := param(r, "x", 5, cols), param(r, "f", 5, cols)
		gain, bias := param(r, "gain", cols), param(r, "bias", cols)
		for _, p := range []float32{0, 0.3} {
			outs := map[string]func(y, n *Tensor, g *Graph) *Tensor{
				"both":     func(y, n *Tensor, g *Graph) *Tensor { return g.Add(g.Mul(y, y), n) },
				"norm":     func(_, n *Tensor, _ *Graph) *Tensor { return n },
				"residual": func(y, _ *Tensor, _ *Graph) *Tensor { return y },
			}
			for name, out := range outs {
				gradCheck(t, fmt.Sprintf("AddDropoutNorm %s cols=%d p=%g", name, cols, p), []*Tensor{x, f, gain, bias},
					func(g *Graph) *Tensor { y, n := g.AddDropoutNorm(x, f, p, gain, bias); return out(y, n, g) })
			}
			gradCheck(t, fmt.Sprintf("AddDropoutNorm no affine cols=%d p=%g", cols, p), []*Tensor{x, f},
				func(g *Graph) *Tensor { y, n := g.AddDropoutNorm(x, f, p, nil, nil); return g.Add(y, n) })
		}
	}
}
