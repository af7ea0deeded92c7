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

// ReLU is max(x, 0).
func (g *Graph) ReLU(x *Tensor) *Tensor {
	return g.unary(x, func(v float32) float32 {
		if v > 0 {
			return v
		}
		return 0
	}, func(v, _ float32) float32 {
		if v > 0 {
			return 1
		}
		return 0
	})
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
	return g.unary(x, func(v float32) float32 { return c * v }, func(_, _ float32) float32 { return c })
}

// OneMinus is 1 - x (the complementary gate in GRUs and gated fusion).
func (g *Graph) OneMinus(x *Tensor) *Tensor {
	return g.unary(x, func(v float32) float32 { return 1 - v }, func(_, _ float32) float32 { return -1 })
}

// binary builds y = f(a, b) elementwise over equal shapes, with partial
// derivatives da(a,b) and db(a,b).
func (g *Graph) binary(name string, a, b *Tensor, f func(a, b float32) float32,
	da, db func(a, b float32) float32) *Tensor {
	mustSameShape(name, a, b)
	y := g.newTensor([]*Tensor{a, b}, a.Shape()...)
	n := len(a.Data)
	g.parallel(n, 8, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			y.Data[i] = f(a.Data[i], b.Data[i])
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
		g.parallel(n, 8, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				d := y.Grad[i]
				if ga != nil {
					ga[i] += d * da(a.Data[i], b.Data[i])
				}
				if gb != nil {
					gb[i] += d * db(a.Data[i], b.Data[i])
				}
			}
		})
	})
	return y
}

func one(_, _ float32) float32      { return 1 }
func minusOne(_, _ float32) float32 { return -1 }

// Add is a + b (the residual connection).
func (g *Graph) Add(a, b *Tensor) *Tensor {
	return g.binary("Add", a, b, func(a, b float32) float32 { return a + b }, one, one)
}

// Sub is a - b.
func (g *Graph) Sub(a, b *Tensor) *Tensor {
	return g.binary("Sub", a, b, func(a, b float32) float32 { return a - b }, one, minusOne)
}

// Mul is the elementwise product a ⊙ b.
func (g *Graph) Mul(a, b *Tensor) *Tensor {
	return g.binary("Mul", a, b, func(a, b float32) float32 { return a * b },
		func(_, b float32) float32 { return b }, func(a, _ float32) float32 { return a })
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
