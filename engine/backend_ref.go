package engine

import (
	"fmt"
	"math"
)

// refBackend is the reference backend: every op as plain loops over the
// definitions, sums and transcendental functions in float64, one thread,
// no assembly. It is obviously correct rather than fast; the conformance
// suite measures the other backends against it, and finite differences
// check its gradients (backend_ref_test.go). It keeps its buffers in the
// graph's host arena, like the CPU backend.
type refBackend struct{ g *Graph }

func (r *refBackend) Name() string { return BackendReference }

func (r *refBackend) Alloc(n int) []float32 { return r.g.arena.get(n) }
func (r *refBackend) Zeros(n int) []float32 { return r.g.arena.zeros(n) }
func (r *refBackend) Free(buf []float32)    { r.g.arena.recycle(buf) }

// at is element (i, j) of op(a) for a row-major matrix with leading
// dimension ld, transposed when t.
func at(a []float32, ld int, t bool, i, j int) float64 {
	if t {
		return float64(a[j*ld+i])
	}
	return float64(a[i*ld+j])
}

func (r *refBackend) Gemm(ta, tb bool, m, n, k int, alpha float32, a []float32, lda int,
	b []float32, ldb int, beta float32, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for p := 0; p < k; p++ {
				s += at(a, lda, ta, i, p) * at(b, ldb, tb, p, j)
			}
			v := float64(alpha) * s
			if beta != 0 {
				v += float64(beta) * float64(c[i*ldc+j])
			}
			c[i*ldc+j] = float32(v)
		}
	}
}

func (r *refBackend) LinearForward(x, w, b, y *Tensor) {
	if w.Data == nil {
		panic(fmt.Sprintf("engine: the reference backend needs %s's float32 values", w.Name))
	}
	n, in, out := x.Rows(), x.Cols(), w.Dim(0)
	for i := 0; i < n; i++ {
		for o := 0; o < out; o++ {
			var s float64
			if b != nil {
				s = float64(b.Data[o])
			}
			for p := 0; p < in; p++ {
				s += float64(x.Data[i*in+p]) * float64(w.Data[o*in+p])
			}
			y.Data[i*out+o] = float32(s)
		}
	}
}

func (r *refBackend) LinearBackward(x, w, b *Tensor, dy []float32, grad func(*Tensor) []float32) {
	n, in, out := x.Rows(), x.Cols(), w.Dim(0)
	if x.needGrad { // dX += dY·W
		r.Gemm(false, false, n, in, out, 1, dy, out, w.Data, in, 1, grad(x), in)
	}
	if w.needGrad { // dW += dYᵀ·X
		r.Gemm(true, false, out, in, n, 1, dy, out, x.Data, in, 1, grad(w), in)
	}
	if b != nil && b.needGrad {
		db := grad(b)
		for o := 0; o < out; o++ {
			var s float64
			for i := 0; i < n; i++ {
				s += float64(dy[i*out+o])
			}
			db[o] = float32(float64(db[o]) + s)
		}
	}
}

func (r *refBackend) Unary(op UnaryOp, x, y []float32) {
	for i, v := range x {
		f := float64(v)
		switch op {
		case OpReLU:
			y[i] = float32(math.Max(f, 0))
		case OpSigmoid:
			y[i] = float32(1 / (1 + math.Exp(-f)))
		case OpTanh:
			y[i] = float32(math.Tanh(f))
		default:
			panic("engine: reference backend has no " + op.String())
		}
	}
}

func (r *refBackend) UnaryBackward(op UnaryOp, x, y, dy, dx []float32) {
	for i := range dx {
		yv := float64(y[i])
		var d float64
		switch op {
		case OpReLU:
			if x[i] > 0 {
				d = 1
			}
		case OpSigmoid:
			d = yv * (1 - yv)
		case OpTanh:
			d = 1 - yv*yv
		}
		dx[i] = float32(float64(dx[i]) + float64(dy[i])*d)
	}
}

func (r *refBackend) Affine(x, y []float32, c, d float32) {
	for i, v := range x {
		y[i] = float32(float64(c)*float64(v) + float64(d))
	}
}

func (r *refBackend) AddScaled(a, b, y []float32, s float32) {
	for i := range y {
		y[i] = float32(float64(a[i]) + float64(s)*float64(b[i]))
	}
}

func (r *refBackend) Mul(a, b, y []float32) {
	for i := range y {
		y[i] = float32(float64(a[i]) * float64(b[i]))
	}
}

func (r *refBackend) MulBackward(a, b, dy, da, db []float32) {
	for i := range dy {
		if da != nil {
			da[i] = float32(float64(da[i]) + float64(dy[i])*float64(b[i]))
		}
		if db != nil {
			db[i] = float32(float64(db[i]) + float64(dy[i])*float64(a[i]))
		}
	}
}

func (r *refBackend) Axpy(dst, src []float32, a float32) {
	for i := range dst {
		dst[i] = float32(float64(dst[i]) + float64(a)*float64(src[i]))
	}
}

func (r *refBackend) ScaleInPlace(x []float32, a float32) {
	for i := range x {
		x[i] = float32(float64(a) * float64(x[i]))
	}
}

func (r *refBackend) Sum(x []float32) float64 {
	var s float64
	for _, v := range x {
		s += float64(v)
	}
	return s
}

func (r *refBackend) AddConst(dst []float32, c float32) {
	for i := range dst {
		dst[i] = float32(float64(dst[i]) + float64(c))
	}
}
