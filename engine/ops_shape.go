package engine

import "fmt"

// Reshape returns a view of x with a new shape of the same size; gradients
// flow to x unchanged (they share buffers).
func (g *Graph) Reshape(x *Tensor, shape ...int) *Tensor {
	y := g.headers.get()
	y.setShape(shape)
	if y.Size() != x.Size() {
		panic(fmt.Sprintf("engine.Reshape: %v to %v", x.Shape(), shape))
	}
	y.Data, y.needGrad = x.Data, x.needGrad && g.record
	if y.needGrad {
		y.Grad = g.grad(x)
	}
	return y
}

// ConcatCols joins tensors with equal row counts along the last dimension.
func (g *Graph) ConcatCols(xs ...*Tensor) *Tensor {
	n, total := xs[0].Rows(), 0
	for _, x := range xs {
		if x.Rows() != n {
			panic(fmt.Sprintf("engine.ConcatCols: %v and %v have different rows", xs[0].Shape(), x.Shape()))
		}
		total += x.Cols()
	}
	y := g.newTensor(xs, n, total)
	g.parallel(n, total, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			off := r * total
			for _, x := range xs {
				c := x.Cols()
				copy(y.Data[off:off+c], x.Data[r*c:(r+1)*c])
				off += c
			}
		}
	})
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		col := 0
		for _, x := range xs {
			c := x.Cols()
			if x.needGrad {
				dx := g.grad(x)
				g.parallel(n, c, func(_, lo, hi int) {
					for r := lo; r < hi; r++ {
						axpy(dx[r*c:(r+1)*c], y.Grad[r*total+col:], 1)
					}
				})
			}
			col += c
		}
	})
	return y
}

// SliceCols copies columns [from, to) of x into a new Rows()×(to-from) tensor.
func (g *Graph) SliceCols(x *Tensor, from, to int) *Tensor {
	n, c := x.Rows(), x.Cols()
	if from < 0 || to > c || from >= to {
		panic(fmt.Sprintf("engine.SliceCols: [%d,%d) of %v", from, to, x.Shape()))
	}
	w := to - from
	y := g.newTensor([]*Tensor{x}, n, w)
	for r := 0; r < n; r++ {
		copy(y.Data[r*w:(r+1)*w], x.Data[r*c+from:r*c+to])
	}
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		dx := g.grad(x)
		for r := 0; r < n; r++ {
			axpy(dx[r*c+from:r*c+to], y.Grad[r*w:(r+1)*w], 1)
		}
	})
	return y
}

// GatherRows builds a tensor from rows idx of x (beam reordering, selecting
// the last time step); the gradient is scattered back.
func (g *Graph) GatherRows(x *Tensor, idx []int) *Tensor {
	c, n := x.Cols(), x.Rows()
	y := g.newTensor([]*Tensor{x}, len(idx), c)
	for i, r := range idx {
		if r < 0 || r >= n {
			panic(fmt.Sprintf("engine.GatherRows: row %d of %d", r, n))
		}
		copy(y.Data[i*c:(i+1)*c], x.Data[r*c:(r+1)*c])
	}
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		dx := g.grad(x)
		for i, r := range idx {
			axpy(dx[r*c:(r+1)*c], y.Grad[i*c:(i+1)*c], 1)
		}
	})
	return y
}

// WeightedSum returns Σ_i w[off+i]·xs[i] for tensors of equal shape, with
// gradients to every xs[i] and to the weights (dense layer aggregation in
// DLCL, transparent attention, MSC ablations).
func (g *Graph) WeightedSum(xs []*Tensor, w *Tensor, off int) *Tensor {
	for _, x := range xs[1:] {
		mustSameShape("WeightedSum", xs[0], x)
	}
	if off+len(xs) > w.Size() {
		panic(fmt.Sprintf("engine.WeightedSum: %d weights from %d of %v", len(xs), off, w.Shape()))
	}
	inputs := append(append(make([]*Tensor, 0, len(xs)+1), xs...), w)
	y := g.newTensor(inputs, xs[0].Shape()...)
	n := len(y.Data)
	g.parallel(n, 2*len(xs), func(_, lo, hi int) {
		ys := y.Data[lo:hi]
		clear(ys)
		for i, x := range xs {
			axpy(ys, x.Data[lo:hi], w.Data[off+i])
		}
	})
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		for i, x := range xs {
			if x.needGrad {
				axpy(g.grad(x), y.Grad, w.Data[off+i])
			}
			if w.needGrad {
				var s float64
				for j, d := range y.Grad {
					s += float64(d) * float64(x.Data[j])
				}
				g.grad(w)[off+i] += float32(s)
			}
		}
	})
	return y
}
