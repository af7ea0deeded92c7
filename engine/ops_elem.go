package engine

import (
	"math"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// unary builds the elementwise op y = op(x); the backend's backward
// expresses the derivative through x and y, both valid until Reset.
func (g *Graph) unary(x *Tensor, op UnaryOp) *Tensor {
	y := g.newTensor([]*Tensor{x}, x.Shape()...)
	g.be.Unary(op, x.Data, y.Data)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		g.be.UnaryBackward(op, x.Data, y.Data, y.Grad, g.grad(x))
	})
	return y
}

// Unary on the CPU: each op's loop written out, since a closure call per
// element cost as much as sigmoid's arithmetic; sigmoid and tanh run on
// vectors (kernels.Sigmoid and kernels.Tanh, the same bits as sigmoid32
// and tanh32).
func (c cpuBackend) Unary(op UnaryOp, x, y []float32) {
	var f func(x, y []float32)
	switch op {
	case OpReLU:
		c.relu(x, y)
		return
	case OpSigmoid:
		f = kernels.Sigmoid
	case OpTanh:
		f = kernels.Tanh
	default:
		panic("engine: no function for " + op.String())
	}
	c.g.parallel(len(x), 8, func(_, lo, hi int) { f(x[lo:hi], y[lo:hi]) })
}

// UnaryBackward on the CPU: dx += dy·f'(x, y).
func (c cpuBackend) UnaryBackward(op UnaryOp, x, y, dy, dx []float32) {
	if op == OpReLU {
		c.reluBackward(y, dy, dx)
		return
	}
	sig := op == OpSigmoid
	if !sig && op != OpTanh {
		panic("engine: no derivative for " + op.String())
	}
	c.g.parallel(len(x), 8, func(_, lo, hi int) {
		ys, dys, dxs := y[lo:hi], dy[lo:hi], dx[lo:hi]
		if sig { // σ' = y(1-y)
			for i, v := range ys {
				dxs[i] += dys[i] * (v * (1 - v))
			}
			return
		}
		for i, v := range ys { // tanh' = 1-y²
			dxs[i] += dys[i] * (1 - v*v)
		}
	})
}

// ReLU is max(x, 0). Its kernels are written out rather than built with
// unary, and branch-free: the sign of a pre-activation is a coin toss, and
// mispredicted branches and a closure call per element cost several times
// the arithmetic. A NaN input gives NaN (as in PyTorch) unless its sign bit
// is set.
func (g *Graph) ReLU(x *Tensor) *Tensor { return g.unary(x, OpReLU) }

func (c cpuBackend) relu(x, y []float32) {
	c.g.parallel(len(x), 2, func(_, lo, hi int) {
		ys := y[lo:hi]
		for i, v := range x[lo:hi] {
			b := math.Float32bits(v)
			// all ones when the sign bit is set: negative values and -0
			// become +0
			neg := uint32(int32(b) >> 31)
			ys[i] = math.Float32frombits(b &^ neg)
		}
	})
}

func (c cpuBackend) reluBackward(y, dy, dx []float32) {
	c.g.parallel(len(y), 2, func(_, lo, hi int) {
		dxs, dys := dx[lo:hi], dy[lo:hi]
		for i, v := range y[lo:hi] {
			// y ≥ +0, so y > 0 iff its bits are non-zero (and below
			// 2^31): then -bits has the sign bit set
			pass := uint32(int32(-math.Float32bits(v)) >> 31)
			dxs[i] += math.Float32frombits(math.Float32bits(dys[i]) & pass)
		}
	})
}

// Sigmoid is 1/(1+e^-x).
func (g *Graph) Sigmoid(x *Tensor) *Tensor {
	return g.unary(x, OpSigmoid)
}

// Tanh is the hyperbolic tangent.
func (g *Graph) Tanh(x *Tensor) *Tensor {
	return g.unary(x, OpTanh)
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
	g.be.Affine(x.Data, y.Data, c, d)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		g.be.Axpy(g.grad(x), y.Grad, c)
	})
	return y
}

func (cb cpuBackend) Affine(x, y []float32, c, d float32) {
	cb.g.parallel(len(x), 2, func(_, lo, hi int) {
		ys := y[lo:hi]
		for i, v := range x[lo:hi] {
			ys[i] = c*v + d
		}
	})
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
	g.be.AddScaled(a.Data, b.Data, y.Data, s)
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		if a.needGrad {
			g.be.Axpy(g.grad(a), y.Grad, 1)
		}
		if b.needGrad {
			g.be.Axpy(g.grad(b), y.Grad, s)
		}
	})
	return y
}

func (c cpuBackend) AddScaled(a, b, y []float32, s float32) {
	c.g.parallel(len(a), 2, func(_, lo, hi int) {
		ys, bs := y[lo:hi], b[lo:hi]
		for i, v := range a[lo:hi] {
			ys[i] = v + s*bs[i]
		}
	})
}

// Mul is the elementwise product a ⊙ b.
func (g *Graph) Mul(a, b *Tensor) *Tensor {
	mustSameShape("Mul", a, b)
	y := g.newTensor([]*Tensor{a, b}, a.Shape()...)
	g.be.Mul(a.Data, b.Data, y.Data)
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
		g.be.MulBackward(a.Data, b.Data, y.Grad, ga, gb)
	})
	return y
}

func (c cpuBackend) Mul(a, b, y []float32) {
	c.g.parallel(len(a), 2, func(_, lo, hi int) {
		ys, bs := y[lo:hi], b[lo:hi]
		for i, v := range a[lo:hi] {
			ys[i] = v * bs[i]
		}
	})
}

func (c cpuBackend) MulBackward(a, b, dy, ga, gb []float32) {
	c.g.parallel(len(a), 3, func(_, lo, hi int) {
		dy, as, bs := dy[lo:hi], a[lo:hi], b[lo:hi]
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
	y.Data[0] = float32(g.be.Sum(x.Data) * scale)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		g.be.AddConst(g.grad(x), y.Grad[0]*float32(scale))
	})
	return y
}

func (c cpuBackend) Sum(x []float32) float64 {
	var s float64
	for _, v := range x {
		s += float64(v)
	}
	return s
}

func (c cpuBackend) AddConst(dst []float32, d float32) {
	for i := range dst {
		dst[i] += d
	}
}
