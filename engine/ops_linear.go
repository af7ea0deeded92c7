package engine

import (
	"fmt"
)

// Linear computes y = x·Wᵀ + b for x of shape (..., in), W of shape
// (out, in) and b of shape (out) or nil. Where the CPU has the packed
// float32 kernel, inference multiplies by weights packed once
// (sgemm_packed.go) and training by weights packed for each product
// (linear_train.go); otherwise OpenBLAS computes it (linearBLAS).
func (g *Graph) Linear(x, w, b *Tensor) *Tensor {
	in, out := x.Cols(), w.Dim(0)
	if w.Cols() != in || (b != nil && b.Size() != out) {
		panic(fmt.Sprintf("engine.Linear: x %v, W %v, b %v", x.Shape(), w.Shape(), shapeOf(b)))
	}
	shape := append(append(make([]int, 0, MaxDims), x.Shape()[:x.ndim-1]...), out)
	y := g.newTensor([]*Tensor{x, w, b}, shape...)
	g.be.LinearForward(x, w, b, y)
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		if w.needGrad {
			// the weight is being trained: a packed copy made for
			// inference (validation decoding) will be stale after the
			// update (the fingerprint would catch it too)
			w.WeightsChanged()
		}
		g.be.LinearBackward(x, w, b, y.Grad, g.grad)
	})
	return y
}

// LinearForward on the CPU: int8 or packed weights for inference, packed
// per product or OpenBLAS for training.
func (c cpuBackend) LinearForward(x, w, b, y *Tensor) {
	g, in := c.g, x.Cols()
	if g.productInt8(w) {
		g.linearInt8(x, w, b, y)
		return
	}
	if !g.record && f32Kernel.Tile != nil {
		// inference: weights packed once for the register-tiled kernel
		g.linearPacked(f32Kernel, x, w, b, y)
		return
	}
	if trainPacked(in) {
		var bias []float32
		if b != nil {
			bias = b.Data
		}
		g.linearTrainPacked(x, w, bias, y)
	} else {
		g.linearBLAS(x, w, b, y)
	}
}

// LinearBackward on the CPU: dX by the packed kernel where there is one,
// dW by gradW, db as column sums.
func (c cpuBackend) LinearBackward(x, w, b *Tensor, dy []float32, grad func(*Tensor) []float32) {
	g := c.g
	n, out := x.Rows(), w.Dim(0)
	g.linearGradXW(x, w, dy, grad)
	if b != nil && b.needGrad {
		g.sumColumnsRows(grad(b), n, out, func(lo, hi int, acc []float32) {
			addRows(acc, dy[lo*out:], hi-lo, out)
		})
	}
}

// linearGradXW adds the input's and the weight's gradients of y = x·Wᵀ
// (+ b) from dy, each only when needed: dX by the packed kernel where
// there is one, dW by gradW. Linear's and LinearReLU's backwards share it.
func (g *Graph) linearGradXW(x, w *Tensor, dy []float32, grad func(*Tensor) []float32) {
	n, in, out := x.Rows(), x.Cols(), w.Dim(0)
	if x.needGrad && trainPackedGradX() {
		g.gradXTrainPacked(dy, n, w, x)
	} else if x.needGrad {
		g.gemm(false, false, n, in, out, 1, dy, out, w.Data, in, 1, grad(x), in)
	}
	if w.needGrad {
		g.gradW(dy, n, out, x.Data, in, grad(w))
	}
}

// linearBLAS sets y = x·Wᵀ + b through OpenBLAS, the bias added inside the
// product by pre-filling y with it and using beta = 1.
func (g *Graph) linearBLAS(x, w, b, y *Tensor) {
	n, in, out := x.Rows(), x.Cols(), w.Dim(0)
	beta := float32(0)
	if b != nil {
		g.parallel(n, out, func(_, lo, hi int) {
			for r := lo; r < hi; r++ {
				copy(y.Data[r*out:(r+1)*out], b.Data)
			}
		})
		beta = 1
	}
	g.gemm(false, true, n, out, in, 1, x.Data, in, w.Data, in, beta, y.Data, out)
}

func shapeOf(t *Tensor) []int {
	if t == nil {
		return nil
	}
	return t.Shape()
}

// MatMul computes op(a)·op(b) for 2-D tensors, op = transpose when ta/tb.
func (g *Graph) MatMul(a, b *Tensor, ta, tb bool) *Tensor {
	if a.ndim != 2 || b.ndim != 2 {
		panic(fmt.Sprintf("engine.MatMul: need matrices, got %v and %v", a.Shape(), b.Shape()))
	}
	m, k := a.shape[0], a.shape[1]
	if ta {
		m, k = k, m
	}
	k2, n := b.shape[0], b.shape[1]
	if tb {
		k2, n = n, k2
	}
	if k != k2 {
		panic(fmt.Sprintf("engine.MatMul: inner dimensions %d and %d differ", k, k2))
	}
	lda, ldb := a.shape[1], b.shape[1]
	y := g.newTensor([]*Tensor{a, b}, m, n)
	g.be.Gemm(ta, tb, m, n, k, 1, a.Data, lda, b.Data, ldb, 0, y.Data, n)
	g.push(y, func() {
		dy := y.Grad
		if dy == nil {
			return
		}
		if a.needGrad { // dA = dY·op(B)ᵀ (or its transpose)
			if ta {
				g.be.Gemm(tb, true, k, m, n, 1, b.Data, ldb, dy, n, 1, g.grad(a), lda)
			} else {
				g.be.Gemm(false, !tb, m, k, n, 1, dy, n, b.Data, ldb, 1, g.grad(a), lda)
			}
		}
		if b.needGrad { // dB = op(A)ᵀ·dY (or its transpose)
			if tb {
				g.be.Gemm(true, ta, n, k, m, 1, dy, n, a.Data, lda, 1, g.grad(b), ldb)
			} else {
				g.be.Gemm(!ta, false, k, n, m, 1, a.Data, lda, dy, n, 1, g.grad(b), ldb)
			}
		}
	})
	return y
}
