package engine

import "math"

// unary builds an elementwise op y = f(x) whose derivative is expressed
// through x and y (dfdx(x, y)); both stay valid until Reset.
func (g *Graph) unary(x *Tensor, f func(float32) float32, dfdx func(x, y float32) float32) *Tensor {
	y := g.newTensor([]*Tensor{x}, x.Shape()...)
	n := len(x.Data)
	g.parallel(n, 8, func(_, lo, hi int) {
		xs, ys := x.Data[lo:hi], y.Data[lo:hi]
		for i, v := range xs {
			ys[i] = f(v)
		}
	})
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		dx := g.grad(x)
		g.parallel(n, 8, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				dx[i] += y.Grad[i] * dfdx(x.Data[i], y.Data[i])
			}
		})
	})
	return y
}

// ReLU is max(x, 0). Its kernels are written out rather than built with
// unary, and branch-free: the sign of a pre-activation is a coin toss, and
// mispredicted branches and a closure call per element cost several times
// the arithmetic. A NaN input gives NaN (as in PyTorch) unless its sign bit
// is set.
func (g *Graph) ReLU(x *Tensor) *Tensor {
	y := g.newTensor([]*Tensor{x}, x.Shape()...)
	n := len(x.Data)
	g.parallel(n, 2, func(_, lo, hi int) {
		ys := y.Data[lo:hi]
		for i, v := range x.Data[lo:hi] {
			b := math.Float32bits(v)
			// all ones when the sign bit is set: negative values and -0
			// become +0
			neg := uint32(int32(b) >> 31)
			ys[i] = math.Float32frombits(b &^ neg)
		}
	})
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		dx := g.grad(x)
		g.parallel(n, 2, func(_, lo, hi int) {
			dxs, dys := dx[lo:hi], y.Grad[lo:hi]
			for i, v := range y.Data[lo:hi] {
				// y ≥ +0, so y > 0 iff its bits are non-zero (and below
				// 2^31): then -bits has the sign bit set
				pass := uint32(int32(-math.Float32bits(v)) >> 31)
				dxs[i] += math.Float32frombits(math.Float32bits(dys[i]) & pass)
			}
		})
	})
	return y
}

// Sigmoid is 1/(1+e^-x).
func (g *Graph) Sigmoid(x *Tensor) *Tensor {
	return g.unary(x, sigmoid, func(_, y float32) float32 { return y * (1 - y) })
}

func sigmoid(v float32) float32 {
	if v >= 0 {
		return float32(1 / (1 + math.Exp(-float64(v))))
	}
	e := math.Exp(float64(v))
	return float32(e / (1 + e))
}

// Tanh is the hyperbolic tangent.
func (g *Graph) Tanh(x *Tensor) *Tensor {
	return g.unary(x, func(v float32) float32 { return float32(math.Tanh(float64(v))) },
		func(_, y float32) float32 { return 1 - y*y })
}

// Scale is c·x.
func (g *Graph) Scale(x *Tensor, c float32) *Tensor {
	return g.affine(x, c, 0)
}

// OneMinus is 1 - x (the complementary gate in GRUs and gated fusion).
func (g *Graph) OneMinus(x *Tensor) *Tensor {
	return g.affine(x, -1, 1)
}

// affine is y = c·x + d elementwise.
func (g *Graph) affine(x *Tensor, c, d float32) *Tensor {
	y := g.newTensor([]*Tensor{x}, x.Shape()...)
	n := len(x.Data)
	g.parallel(n, 2, func(_, lo, hi int) {
		ys := y.Data[lo:hi]
		for i, v := range x.Data[lo:hi] {
			ys[i] = c*v + d
		}
	})
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		dx := g.grad(x)
		g.parallel(n, 2, func(_, lo, hi int) { axpy(dx[lo:hi], y.Grad[lo:hi], c) })
	})
	return y
}

// Add is a + b (the residual connection).
func (g *Graph) Add(a, b *Tensor) *Tensor {
	return g.addSub("Add", a, b, 1)
}

// Sub is a - b.
func (g *Graph) Sub(a, b *Tensor) *Tensor {
	return g.addSub("Sub", a, b, -1)
}

// addSub is y = a + s·b with s = ±1. Like ReLU, the elementwise kernels are
// written out rather than built from per-element closures.
func (g *Graph) addSub(name string, a, b *Tensor, s float32) *Tensor {
	mustSameShape(name, a, b)
	y := g.newTensor([]*Tensor{a, b}, a.Shape()...)
	n := len(a.Data)
	g.parallel(n, 2, func(_, lo, hi int) {
		ys, bs := y.Data[lo:hi], b.Data[lo:hi]
		for i, v := range a.Data[lo:hi] {
			ys[i] = v + s*bs[i]
		}
	})
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		var ga, gb []float32
		if a.needGrad {
			ga = g.grad(a)
		}
		if b.needGrad {
			gb = g.grad(b)
		}
		g.parallel(n, 2, func(_, lo, hi int) {
			if ga != nil {
				axpy(ga[lo:hi], y.Grad[lo:hi], 1)
			}
			if gb != nil {
				axpy(gb[lo:hi], y.Grad[lo:hi], s)
			}
		})
	})
	return y
}

// Mul is the elementwise product a ⊙ b.
func (g *Graph) Mul(a, b *Tensor) *Tensor {
	mustSameShape("Mul", a, b)
	y := g.newTensor([]*Tensor{a, b}, a.Shape()...)
	n := len(a.Data)
	g.parallel(n, 2, func(_, lo, hi int) {
		ys, bs := y.Data[lo:hi], b.Data[lo:hi]
		for i, v := range a.Data[lo:hi] {
			ys[i] = v * bs[i]
		}
	})
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		var ga, gb []float32
		if a.needGrad {
			ga = g.grad(a)
		}
		if b.needGrad {
			gb = g.grad(b)
		}
		g.parallel(n, 3, func(_, lo, hi int) {
			dy, as, bs := y.Grad[lo:hi], a.Data[lo:hi], b.Data[lo:hi]
			if ga != nil {
				gs := ga[lo:hi]
				for i, d := range dy {
					gs[i] += d * bs[i]
				}
			}
			if gb != nil {
				gs := gb[lo:hi]
				for i, d := range dy {
					gs[i] += d * as[i]
				}
			}
		})
	})
	return y
}

// Sum adds every element into a one-element tensor (summation in float64).
func (g *Graph) Sum(x *Tensor) *Tensor {
	return g.reduce(x, 1)
}

// Mean averages every element.
func (g *Graph) Mean(x *Tensor) *Tensor {
	return g.reduce(x, 1/float64(len(x.Data)))
}

func (g *Graph) reduce(x *Tensor, scale float64) *Tensor {
	y := g.newTensor([]*Tensor{x}, 1)
	var s float64
	for _, v := range x.Data {
		s += float64(v)
	}
	y.Data[0] = float32(s * scale)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		d := y.Grad[0] * float32(scale)
		dx := g.grad(x)
		for i := range dx {
			dx[i] += d
		}
	})
	return y
}
