package engine

import (
	"fmt"
	"math"
)

// Fused ops: the same arithmetic as a chain of ops, in fewer passes over
// memory and without the intermediate tensors (each would be as large as
// the activations: an FFN's hidden layer is 4·d wide). Results equal the
// unfused chains', which the tests check bit for bit.

// LinearReLU is ReLU(Linear(x, w, b)): the product is written with beta = 0
// and one pass then adds the bias and clamps, instead of a pass writing the
// bias, the product reading it back, and a ReLU pass into a second tensor.
// Backward masks the output gradient in place (it is this op's alone) in
// the same pass that sums the bias gradient.
func (g *Graph) LinearReLU(x, w, b *Tensor) *Tensor {
	in, out := x.Cols(), w.Dim(0)
	if w.Cols() != in || b == nil || b.Size() != out {
		panic(fmt.Sprintf("engine.LinearReLU: x %v, W %v, b %v", x.Shape(), w.Shape(), shapeOf(b)))
	}
	shape := append(append(make([]int, 0, MaxDims), x.Shape()[:x.ndim-1]...), out)
	y := g.newTensor([]*Tensor{x, w, b}, shape...)
	g.be.LinearReLU(x, w, b, y)
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		g.be.LinearReLUBackward(x, w, b, y.Data, y.Grad, g.grad)
	})
	return y
}

// LinearReLU on the CPU: the product without the bias where the kernel
// cannot add it, then one pass adding it and clamping.
func (c cpuBackend) LinearReLU(x, w, b, y *Tensor) {
	g := c.g
	n, in, out := x.Rows(), x.Cols(), w.Dim(0)
	bias := b.Data
	if g.productInt8(w) {
		// int8 inference: the product as Linear makes it there, bias
		// included (before this branch fc1 silently ran in float32)
		g.linearInt8(x, w, b, y)
		bias = nil
	} else if !g.record && f32Kernel.Tile != nil {
		// inference on the packed kernel, which adds the bias itself
		// (the same sum as Linear's there)
		g.linearPacked(f32Kernel, x, w, b, y)
		bias = nil
	} else if trainPacked(in) {
		g.linearTrainPacked(x, w, bias, y) // adds the bias itself
		bias = nil
	} else {
		g.gemm(false, true, n, out, in, 1, x.Data, in, w.Data, in, 0, y.Data, out)
	}
	g.parallel(n, out, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			ys := y.Data[r*out : (r+1)*out]
			if bias == nil { // the packed product added it
				relu(ys)
				continue
			}
			biasRelu(ys, bias)
		}
	})
}

// LinearReLUBackward on the CPU masks dy in place (it is the op's alone)
// in the pass that sums the bias gradient.
func (c cpuBackend) LinearReLUBackward(x, w, b *Tensor, y, dy []float32, grad func(*Tensor) []float32) {
	g := c.g
	n, out := x.Rows(), w.Dim(0)
	mask := func(r int) []float32 {
		ds := dy[r*out : (r+1)*out]
		reluGrad(ds, y[r*out:(r+1)*out]) // as ReLU's backward
		return ds
	}
	if b.needGrad {
		g.sumColumns(grad(b), n, out, func(r int, acc []float32) { axpy(acc, mask(r), 1) })
	} else {
		g.parallel(n, out, func(_, lo, hi int) {
			for r := lo; r < hi; r++ {
				mask(r)
			}
		})
	}
	g.linearGradXW(x, w, dy, grad)
}

// AddDropout is x + Dropout(f, p), the residual connection: one pass and
// one tensor instead of two. It draws the same mask as Dropout would (the
// same key, element for element) and is x + f when dropout is off.
func (g *Graph) AddDropout(x, f *Tensor, p float32) *Tensor {
	if !g.DropoutOn || p <= 0 {
		return g.Add(x, f)
	}
	mustSameShape("AddDropout", x, f)
	key := g.nextDropKey(len(x.Data), true)
	scale := 1 / (1 - p)
	threshold := uint32(float64(p) * (1 << 32))
	y := g.newTensor([]*Tensor{x, f}, x.Shape()...)
	mask := g.bitmask((len(x.Data) + 31) / 32)
	g.be.AddDropout(x.Data, f.Data, y.Data, mask, key, threshold, scale)
	g.push(y, func() {
		if y.Grad == nil {
			return
		}
		var dx, df []float32
		if x.needGrad {
			dx = g.grad(x)
		}
		if f.needGrad {
			df = g.grad(f)
		}
		g.be.AddDropoutBackward(y.Grad, dx, df, mask, scale)
	})
	return y
}

func (c cpuBackend) AddDropout(x, f, y []float32, mask []uint32, key uint64, threshold uint32, scale float32) {
	n, words := len(x), len(mask)
	c.g.parallel(words, 32*4, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			base := w * 32
			fs, xs, ys := f[base:min(base+32, n)], x[base:min(base+32, n)], y[base:min(base+32, n)]
			var bits uint32
			for j, v := range fs {
				var k uint32
				if keep(key, base+j, threshold) {
					k = 1
				}
				bits |= k << j
				ys[j] = xs[j] + math.Float32frombits(math.Float32bits(v*scale)&-k)
			}
			mask[w] = bits
		}
	})
}

func (c cpuBackend) AddDropoutBackward(dy, dx, df []float32, mask []uint32, scale float32) {
	n, words := len(dy), len(mask)
	c.g.parallel(words, 32*2, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			base := w * 32
			dys := dy[base:min(base+32, n)]
			if dx != nil {
				dxs := dx[base:min(base+32, n)]
				for j, d := range dys {
					dxs[j] += d
				}
			}
			if df != nil {
				dfs, bits := df[base:min(base+32, n)], mask[w]
				for j, d := range dys {
					dfs[j] += math.Float32frombits(math.Float32bits(d*scale) & -(bits >> j & 1))
				}
			}
		}
	})
}
