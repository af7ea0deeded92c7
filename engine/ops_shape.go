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
	col := 0
	for _, x := range xs {
		g.be.CopyBlock(y.Data[col:], total, x.Data, x.Cols(), n, x.Cols(), false)
		col += x.Cols()
	}
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		col := 0
		for _, x := range xs {
			c := x.Cols()
			if x.needGrad {
				g.be.CopyBlock(g.grad(x), c, y.Grad[col:], total, n, c, true)
			}
			col += c
		}
	})
	return y
}

// CopyBlock on the CPU: rows in parallel, added with axpy.
func (cb cpuBackend) CopyBlock(dst []float32, ldd int, src []float32, lds, rows, cols int, add bool) {
	cb.g.parallel(rows, cols, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			d, s := dst[r*ldd:r*ldd+cols], src[r*lds:r*lds+cols]
			if add {
				axpy(d, s, 1)
			} else {
				copy(d, s)
			}
		}
	})
}

// SliceCols copies columns [from, to) of x into a new Rows()×(to-from) tensor.
func (g *Graph) SliceCols(x *Tensor, from, to int) *Tensor {
	n, c := x.Rows(), x.Cols()
	if from < 0 || to > c || from >= to {
		panic(fmt.Sprintf("engine.SliceCols: [%d,%d) of %v", from, to, x.Shape()))
	}
	w := to - from
	y := g.newTensor([]*Tensor{x}, n, w)
	g.be.CopyBlock(y.Data, w, x.Data[from:], c, n, w, false)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		g.be.CopyBlock(g.grad(x)[from:], c, y.Grad, w, n, w, true)
	})
	return y
}

// GatherRows builds a tensor from rows idx of x (beam reordering, selecting
// the last time step); the gradient is scattered back.
func (g *Graph) GatherRows(x *Tensor, idx []int) *Tensor {
	c, n := x.Cols(), x.Rows()
	y := g.newTensor([]*Tensor{x}, len(idx), c)
	rows := g.int32Scratch(len(idx))
	for i, r := range idx {
		if r < 0 || r >= n {
			panic(fmt.Sprintf("engine.GatherRows: row %d of %d", r, n))
		}
		rows[i] = int32(r)
	}
	g.be.EmbedGather(x.Data, rows, 1, y.Data, c)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		g.be.EmbedScatter(g.grad(x), rows, y.Grad, 1, c)
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
	data := make([][]float32, len(xs))
	for i, x := range xs {
		data[i] = x.Data
	}
	g.be.WeightedSum(y.Data, data, w.Data[off:off+len(xs)])
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		for i, x := range xs {
			if x.needGrad {
				g.be.Axpy(g.grad(x), y.Grad, w.Data[off+i])
			}
			if w.needGrad {
				g.grad(w)[off+i] += float32(g.be.Dot(y.Grad, x.Data))
			}
		}
	})
	return y
}

// WeightedSum on the CPU: elements in parallel chunks, one axpy per term.
func (c cpuBackend) WeightedSum(y []float32, xs [][]float32, w []float32) {
	c.g.parallel(len(y), 2*len(xs), func(_, lo, hi int) {
		ys := y[lo:hi]
		clear(ys)
		for i, x := range xs {
			axpy(ys, x[lo:hi], w[i])
		}
	})
}

// Dot on the CPU: one float64 sum in element order.
func (c cpuBackend) Dot(a, b []float32) float64 {
	var s float64
	for j, d := range a {
		s += float64(d) * float64(b[j])
	}
	return s
}
