package engine

import (
	"math"
	"testing"
)

// runChain builds out = build(g) on a fresh graph with threads threads,
// back-propagates a fixed direction and returns the output and every
// input's gradient, copied.
func runChain(threads int, inputs []*Tensor, build buildFn) [][]float32 {
	for _, in := range inputs {
		in.ZeroGrad()
	}
	g := NewGraph(5)
	g.SetThreads(threads)
	y := build(g)
	dir := make([]float32, y.Size())
	for i := range dir {
		dir[i] = float32(math.Sin(float64(i)))
	}
	g.BackwardWith(y, dir)
	out := [][]float32{append([]float32(nil), y.Data...)}
	for _, in := range inputs {
		out = append(out, append([]float32(nil), in.Grad...))
	}
	return out
}

// sameBits fails unless the fused and unfused chains gave identical bits.
func sameBits(t *testing.T, name string, fused, chain [][]float32) {
	t.Helper()
	for k := range fused {
		for i := range fused[k] {
			if math.Float32bits(fused[k][i]) != math.Float32bits(chain[k][i]) {
				t.Fatalf("%s: tensor %d element %d: fused %v, chain %v", name, k, i, fused[k][i], chain[k][i])
			}
		}
	}
}

func TestLinearReLUIsReLUOfLinear(t *testing.T) {
	r := NewRNG(31)
	x, w, b := param(r, "x", 70, 40), param(r, "w", 90, 40), param(r, "b", 90)
	in := []*Tensor{x, w, b}
	for _, th := range []int{1, 2, 3} {
		fused := runChain(th, in, func(g *Graph) *Tensor { return g.LinearReLU(x, w, b) })
		chain := runChain(th, in, func(g *Graph) *Tensor { return g.ReLU(g.Linear(x, w, b)) })
		sameBits(t, "LinearReLU", fused, chain)
	}
	// ReLU has a kink at 0: small x and w and biases of ±0.6 keep every
	// pre-activation (and its finite-difference neighbours) away from it.
	xs, ws, bs := param(r, "x", 6, 3), param(r, "w", 8, 3), param(r, "b", 8)
	for _, p := range []*Tensor{xs, ws} {
		for i := range p.Data {
			p.Data[i] *= 0.3
		}
	}
	for i := range bs.Data {
		bs.Data[i] = float32(0.6 * math.Copysign(1, float64(bs.Data[i])))
	}
	gradCheck(t, "LinearReLU", []*Tensor{xs, ws, bs}, func(g *Graph) *Tensor { return g.LinearReLU(xs, ws, bs) })
}

func TestAddDropoutIsAddOfDropout(t *testing.T) {
	r := NewRNG(32)
	x, f := param(r, "x", 37, 50), param(r, "f", 37, 50)
	in := []*Tensor{x, f}
	for _, p := range []float32{0, 0.3} {
		for _, th := range []int{1, 2} {
			fused := runChain(th, in, func(g *Graph) *Tensor { return g.AddDropout(x, f, p) })
			chain := runChain(th, in, func(g *Graph) *Tensor { return g.Add(x, g.Dropout(f, p)) })
			sameBits(t, "AddDropout", fused, chain)
		}
		gradCheck(t, "AddDropout", in, func(g *Graph) *Tensor { return g.AddDropout(x, f, p) })
	}
}

func TestAddDropoutNormIsChain(t *testing.T) {
	r := NewRNG(33)
	for _, cols := range []int{64, 50} { // whole mask words per row, and the unfused fallback
		x, f := param(r, "x", 37, cols), param(r, "f", 37, cols)
		gain, bias := param(r, "gain", cols), param(r, "bias", cols)
		in := []*Tensor{x, f, gain, bias}
		// both outputs feed the result, as in a pre-norm stack (the
		// residual stream and the next sublayer's input)
		fused := func(p float32) buildFn {
			return func(g *Graph) *Tensor {
				y, n := g.AddDropoutNorm(x, f, p, gain, bias)
				return g.Add(g.Mul(y, y), n)
			}
		}
		chain := func(p float32) buildFn {
			return func(g *Graph) *Tensor {
				// the norm before y's other consumer, as in the stack:
				// y's gradient then sums the same terms in the same order
				y := g.AddDropout(x, f, p)
				n := g.LayerNorm(y, gain, bias)
				return g.Add(g.Mul(y, y), n)
			}
		}
		for _, p := range []float32{0, 0.3} {
			for _, th := range []int{1, 2, 3} {
				sameBits(t, "AddDropoutNorm", runChain(th, in, fused(p)), runChain(th, in, chain(p)))
			}
			gradCheck(t, "AddDropoutNorm", in, fused(p))
			// the norm alone (post-norm: y has no other consumer)
			sameBits(t, "AddDropoutNorm (norm only)",
				runChain(2, in, func(g *Graph) *Tensor { _, n := g.AddDropoutNorm(x, f, p, gain, bias); return n }),
				runChain(2, in, func(g *Graph) *Tensor { return g.LayerNorm(g.AddDropout(x, f, p), gain, bias) }))
		}
	}
	// without gain and bias (the parameter-free norm)
	x, f := param(r, "x", 9, 32), param(r, "f", 9, 32)
	gradCheck(t, "AddDropoutNorm (no affine)", []*Tensor{x, f}, func(g *Graph) *Tensor {
		y, n := g.AddDropoutNorm(x, f, 0.2, nil, nil)
		return g.Add(y, n)
	})
}
