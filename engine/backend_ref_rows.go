package engine

import (
	"fmt"
	"math"
)

// The reference backend's row ops, losses, embeddings, dropout and Adam.

// logSumExp is log Σ e^x over a row, in float64.
func logSumExp(xs []float32) float64 {
	mx := math.Inf(-1)
	for _, v := range xs {
		mx = math.Max(mx, float64(v))
	}
	var s float64
	for _, v := range xs {
		s += math.Exp(float64(v) - mx)
	}
	return mx + math.Log(s)
}

func (r *refBackend) Softmax(x, y []float32, n, v int) {
	for i := 0; i < n; i++ {
		xs := x[i*v : (i+1)*v]
		lse := logSumExp(xs)
		for j, a := range xs {
			y[i*v+j] = float32(math.Exp(float64(a) - lse))
		}
	}
}

// SoftmaxBackward: dx += y ⊙ (dy - Σ dy·y).
func (r *refBackend) SoftmaxBackward(y, dy, dx []float32, n, v int) {
	for i := 0; i < n; i++ {
		var s float64
		for j := i * v; j < (i+1)*v; j++ {
			s += float64(dy[j]) * float64(y[j])
		}
		for j := i * v; j < (i+1)*v; j++ {
			dx[j] = float32(float64(dx[j]) + float64(y[j])*(float64(dy[j])-s))
		}
	}
}

func (r *refBackend) LogSoftmax(x, y []float32, n, v int) {
	for i := 0; i < n; i++ {
		xs := x[i*v : (i+1)*v]
		lse := logSumExp(xs)
		for j, a := range xs {
			y[i*v+j] = float32(float64(a) - lse)
		}
	}
}

// LogSoftmaxBackward: dx += dy - e^y·Σ dy.
func (r *refBackend) LogSoftmaxBackward(y, dy, dx []float32, n, v int) {
	for i := 0; i < n; i++ {
		var s float64
		for j := i * v; j < (i+1)*v; j++ {
			s += float64(dy[j])
		}
		for j := i * v; j < (i+1)*v; j++ {
			dx[j] = float32(float64(dx[j]) + float64(dy[j]) - math.Exp(float64(y[j]))*s)
		}
	}
}

// rowMeanRstd is a row's mean and 1/sqrt(biased variance + eps).
func rowMeanRstd(xs []float32) (float64, float64) {
	var s float64
	for _, v := range xs {
		s += float64(v)
	}
	mu := s / float64(len(xs))
	var q float64
	for _, v := range xs {
		q += (float64(v) - mu) * (float64(v) - mu)
	}
	return mu, 1 / math.Sqrt(q/float64(len(xs))+LayerNormEps)
}

func (r *refBackend) LayerNorm(x, gain, bias, y, mean, rstd []float32, n, d int) {
	for i := 0; i < n; i++ {
		mu, rs := rowMeanRstd(x[i*d : (i+1)*d])
		if mean != nil {
			mean[i], rstd[i] = float32(mu), float32(rs)
		}
		for j := 0; j < d; j++ {
			h := (float64(x[i*d+j]) - mu) * rs
			if gain != nil {
				h *= float64(gain[j])
			}
			if bias != nil {
				h += float64(bias[j])
			}
			y[i*d+j] = float32(h)
		}
	}
}

// LayerNormBackward recomputes each row's statistics in float64 (mean and
// rstd, the forward pass's float32 copies, are not needed).
func (r *refBackend) LayerNormBackward(x, gain, dy, _, _, dx, dgain, dbias []float32, n, d int) {
	h, gd := make([]float64, d), make([]float64, d)
	for i := 0; i < n; i++ {
		mu, rs := rowMeanRstd(x[i*d : (i+1)*d])
		var m1, m2 float64
		for j := 0; j < d; j++ {
			h[j] = (float64(x[i*d+j]) - mu) * rs
			g := float64(dy[i*d+j])
			if dgain != nil {
				dgain[j] = float32(float64(dgain[j]) + g*h[j])
			}
			if dbias != nil {
				dbias[j] = float32(float64(dbias[j]) + g)
			}
			if gain != nil {
				g *= float64(gain[j])
			}
			gd[j] = g
			m1 += g
			m2 += g * h[j]
		}
		if dx == nil {
			continue
		}
		m1, m2 = m1/float64(d), m2/float64(d)
		for j := 0; j < d; j++ {
			dx[i*d+j] = float32(float64(dx[i*d+j]) + rs*(gd[j]-m1-h[j]*m2))
		}
	}
}

func (r *refBackend) EmbedGather(w []float32, ids []int32, scale float32, y []float32, d int) {
	for i, id := range ids {
		for j := 0; j < d; j++ {
			y[i*d+j] = float32(float64(scale) * float64(w[int(id)*d+j]))
		}
	}
}

func (r *refBackend) EmbedScatter(dw []float32, ids []int32, dy []float32, scale float32, d int) {
	for i, id := range ids {
		for j := 0; j < d; j++ {
			k := int(id)*d + j
			dw[k] = float32(float64(dw[k]) + float64(scale)*float64(dy[i*d+j]))
		}
	}
}

func (r *refBackend) AddRows(x, table []float32, pos []int32, y []float32, d int) {
	for i, p := range pos {
		for j := 0; j < d; j++ {
			y[i*d+j] = float32(float64(x[i*d+j]) + float64(table[int(p)*d+j]))
		}
	}
}

func (r *refBackend) Dropout(x, y []float32, mask []uint32, key uint64, threshold uint32, scale float32) {
	clear(mask)
	for i, v := range x {
		if DropKeep(key, i, threshold) {
			mask[i/32] |= 1 << (i % 32)
			y[i] = float32(float64(v) * float64(scale))
		} else {
			y[i] = 0
		}
	}
}

func (r *refBackend) DropoutBackward(dy, dx []float32, mask []uint32, scale float32) {
	for i, d := range dy {
		if mask[i/32]>>(i%32)&1 == 1 {
			dx[i] = float32(float64(dx[i]) + float64(scale)*float64(d))
		}
	}
}

// SmoothedCE: per row, loss = (1-ε-ε')·(-log p_t) + ε'·Σ_j(-log p_j) with
// ε' = ε/(V-1), and the gradient p - q.
func (r *refBackend) SmoothedCE(logits []float32, n, v int, targets []int32, eps float32, pad int32, dlogits []float32) (float64, float64) {
	e := float64(eps)
	ei := e / float64(v-1)
	var loss, nll float64
	for i := 0; i < n; i++ {
		t := targets[i]
		if t == pad {
			if dlogits != nil {
				clear(dlogits[i*v : (i+1)*v])
			}
			continue
		}
		if t < 0 || int(t) >= v {
			panic(fmt.Sprintf("engine.LabelSmoothedCE: target %d outside vocabulary of %d", t, v))
		}
		zs := logits[i*v : (i+1)*v]
		lse := logSumExp(zs)
		var smooth float64
		for _, z := range zs {
			smooth += lse - float64(z)
		}
		rn := lse - float64(zs[t])
		nll += rn
		loss += (1-e-ei)*rn + ei*smooth
		if dlogits != nil {
			for j, z := range zs {
				q := ei
				if j == int(t) {
					q = 1 - e
				}
				dlogits[i*v+j] = float32(math.Exp(float64(z)-lse) - q)
			}
		}
	}
	return loss, nll
}

// Adam in float64: fairseq's update (AdamUpdate), decay before the step.
func (r *refBackend) Adam(u AdamStep, w, grad, m, v []float32, l2 float32) {
	b1, b2 := float64(u.B1), float64(u.B2)
	for i := range w {
		g := float64(grad[i]) + float64(l2)*float64(w[i])
		mi := b1*float64(m[i]) + (1-b1)*g
		vi := b2*float64(v[i]) + (1-b2)*g*g
		wi := float64(w[i])
		if u.WD {
			wi *= float64(u.Decay)
		}
		wi -= float64(u.StepSize) * mi / (math.Sqrt(vi) + float64(u.Eps))
		m[i], v[i], w[i] = float32(mi), float32(vi), float32(wi)
	}
}

// LinearReLU composes LinearForward and ReLU.
func (r *refBackend) LinearReLU(x, w, b, y *Tensor) {
	r.LinearForward(x, w, b, y)
	r.Unary(OpReLU, y.Data, y.Data)
}

// LinearReLUBackward zeroes dy where the output was clamped, then runs
// LinearBackward.
func (r *refBackend) LinearReLUBackward(x, w, b *Tensor, y, dy []float32, grad func(*Tensor) []float32) {
	for i, v := range y {
		if !(v > 0) {
			dy[i] = 0
		}
	}
	r.LinearBackward(x, w, b, dy, grad)
}

// AddDropout composes Dropout and AddScaled.
func (r *refBackend) AddDropout(x, f, y []float32, mask []uint32, key uint64, threshold uint32, scale float32) {
	r.Dropout(f, y, mask, key, threshold, scale)
	r.AddScaled(x, y, y, 1)
}

func (r *refBackend) AddDropoutBackward(dy, dx, df []float32, mask []uint32, scale float32) {
	if dx != nil {
		r.Axpy(dx, dy, 1)
	}
	if df != nil {
		r.DropoutBackward(dy, df, mask, scale)
	}
}

func (r *refBackend) CopyBlock(dst []float32, ldd int, src []float32, lds, rows, cols int, add bool) {
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			v := float64(src[i*lds+j])
			if add {
				v += float64(dst[i*ldd+j])
			}
			dst[i*ldd+j] = float32(v)
		}
	}
}

func (r *refBackend) WeightedSum(y []float32, xs [][]float32, w []float32) {
	for j := range y {
		var s float64
		for i, x := range xs {
			s += float64(w[i]) * float64(x[j])
		}
		y[j] = float32(s)
	}
}

func (r *refBackend) Dot(a, b []float32) float64 {
	var s float64
	for i, v := range a {
		s += float64(v) * float64(b[i])
	}
	return s
}

func (r *refBackend) LogMeanExp(y []float32, xs [][]float32) {
	for i := range y {
		mx := math.Inf(-1)
		for _, x := range xs {
			mx = math.Max(mx, float64(x[i]))
		}
		if math.IsInf(mx, -1) {
			y[i] = float32(mx)
			continue
		}
		var s float64
		for _, x := range xs {
			s += math.Exp(float64(x[i]) - mx)
		}
		y[i] = float32(mx + math.Log(s/float64(len(xs))))
	}
}

func (r *refBackend) LogMeanExpBackward(x, y, dy, dx []float32, k int) {
	for i := range dx {
		if !math.IsInf(float64(y[i]), -1) {
			dx[i] = float32(float64(dx[i]) + float64(dy[i])*math.Exp(float64(x[i])-float64(y[i]))/float64(k))
		}
	}
}
