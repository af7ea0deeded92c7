package engine

import (
	"fmt"
	"math"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// CEResult is the output of LabelSmoothedCE.
type CEResult struct {
	// Loss is the label-smoothed loss summed over non-pad tokens (a
	// one-element tensor to call Backward on).
	Loss *Tensor
	// NLL is the summed negative log-likelihood of the targets (nats), the
	// number perplexity is computed from.
	NLL float64
	// Tokens is the number of non-pad targets.
	Tokens int
}

// LabelSmoothedCE fuses log-softmax over logits (N×V) with fairseq's
// label-smoothed cross-entropy: for each non-pad target t,
//
//	loss = (1-ε-ε')·(-log p_t) + ε'·Σ_j(-log p_j),  ε' = ε/(V-1)
//
// i.e. ε/(V-1) on every wrong class and 1-ε on the right one. Rows whose
// target is pad contribute nothing. The gradient with respect to the logits
// is p_j - q_j with q the smoothed target distribution; it is written during
// the forward pass (the softmax is at hand then) and applied on backward.
func (g *Graph) LabelSmoothedCE(logits *Tensor, targets []int32, eps float32, pad int32) CEResult {
	n, v := logits.Rows(), logits.Cols()
	if len(targets) != n {
		panic(fmt.Sprintf("engine.LabelSmoothedCE: %d targets for %d rows", len(targets), n))
	}
	loss := g.newTensor([]*Tensor{logits}, 1)
	var dlogits []float32
	if loss.needGrad {
		dlogits = g.be.Alloc(n * v)
	}
	total, nll := g.be.SmoothedCE(logits.Data, n, v, targets, eps, pad, dlogits)
	loss.Data[0] = float32(total)
	tokens := 0
	for _, t := range targets {
		if t != pad {
			tokens++
		}
	}
	g.push(loss, func() {
		if loss.Grad == nil || !logits.needGrad {
			return
		}
		g.addGrad(logits, dlogits, loss.Grad[0])
	})
	return CEResult{Loss: loss, NLL: nll, Tokens: tokens}
}

// SmoothedCE on the CPU: rows in parallel chunks, each chunk's sums kept
// apart and added in chunk order.
func (c cpuBackend) SmoothedCE(logits []float32, n, v int, targets []int32, eps float32, pad int32, dlogits []float32) (float64, float64) {
	g := c.g
	epsI := float64(eps) / float64(v-1)
	nc := g.chunks(n, v)
	part := make([]float64, 2*nc) // per chunk: loss, nll (small; fixed order)
	g.parallel(n, v, func(ch, lo, hi int) {
		var l, nl float64
		for r := lo; r < hi; r++ {
			t := targets[r]
			var dr []float32
			if dlogits != nil {
				dr = dlogits[r*v : (r+1)*v]
			}
			if t == pad {
				clear(dr)
				continue
			}
			if t < 0 || int(t) >= v {
				panic(fmt.Sprintf("engine.LabelSmoothedCE: target %d outside vocabulary of %d", t, v))
			}
			rl, rn := smoothedRow(logits[r*v:(r+1)*v], int(t), float64(eps), epsI, dr)
			l += rl
			nl += rn
		}
		part[2*ch], part[2*ch+1] = l, nl
	})
	var total, nll float64
	for ch := 0; ch < nc; ch++ {
		total += part[2*ch]
		nll += part[2*ch+1]
	}
	return total, nll
}

// smoothedRow computes one row's loss and NLL and, when dr is non-nil, the
// gradient p - q into dr. The exponentials are computed once: dr holds
// e^(z_j - max) until the sum is known.
func smoothedRow(z []float32, t int, eps, epsI float64, dr []float32) (loss, nll float64) {
	mx := rowMax(z)
	sum, sumZ := expSums(z, mx, dr)
	lse := float64(mx) + math.Log(sum)
	nll = lse - float64(z[t])
	// Σ_j -log p_j = V·lse - Σ_j z_j
	smooth := float64(len(z))*lse - sumZ
	loss = (1-eps-epsI)*nll + epsI*smooth
	if dr != nil {
		inv, e := float32(1/sum), float32(epsI)
		mulSub(dr, inv, e)
		dr[t] -= float32(1 - eps - epsI)
	}
	return loss, nll
}

// expSums returns Σ_j e^(z_j - mx) and Σ_j z_j, storing the exponentials
// in dr when it is non-nil, in eight float64 lanes added in a fixed order
// (kernels.ExpSums: vectorised where the CPU allows, an eighth of the
// scalar loop's time).
func expSums(z []float32, mx float32, dr []float32) (sum, sumZ float64) {
	return kernels.ExpSums(z, mx, dr)
}

// LogSoftmax returns row-wise log-probabilities (used by decoding; it records
// a backward pass too, for scoring with gradients).
func (g *Graph) LogSoftmax(x *Tensor) *Tensor {
	n, v := x.Rows(), x.Cols()
	y := g.newTensor([]*Tensor{x}, x.Shape()...)
	g.be.LogSoftmax(x.Data, y.Data, n, v)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		g.be.LogSoftmaxBackward(y.Data, y.Grad, g.grad(x), n, v)
	})
	return y
}

func (c cpuBackend) LogSoftmax(x, y []float32, n, v int) {
	c.g.parallel(n, v, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			xs, ys := x[r*v:(r+1)*v], y[r*v:(r+1)*v]
			mx := xs[0]
			for _, a := range xs {
				if a > mx {
					mx = a
				}
			}
			sum, _ := expSums(xs, mx, nil)
			lse := mx + float32(math.Log(sum))
			for j, a := range xs {
				ys[j] = a - lse
			}
		}
	})
}

func (c cpuBackend) LogSoftmaxBackward(y, dy, dx []float32, n, v int) {
	c.g.parallel(n, v, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			ys, dy, dxs := y[r*v:(r+1)*v], dy[r*v:(r+1)*v], dx[r*v:(r+1)*v]
			var s float64
			for _, d := range dy {
				s += float64(d)
			}
			for j := range dxs {
				dxs[j] += dy[j] - expNeg(ys[j])*float32(s)
			}
		}
	})
}

// Softmax is the row-wise softmax (transparent-attention weights, gates).
func (g *Graph) Softmax(x *Tensor) *Tensor {
	n, v := x.Rows(), x.Cols()
	y := g.newTensor([]*Tensor{x}, x.Shape()...)
	g.be.Softmax(x.Data, y.Data, n, v)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		g.be.SoftmaxBackward(y.Data, y.Grad, g.grad(x), n, v)
	})
	return y
}

func (c cpuBackend) Softmax(x, y []float32, n, v int) {
	copy(y, x)
	c.g.parallel(n, v, func(_, lo, hi int) {
		maskedSoftmax(y[lo*v:hi*v], hi-lo, v, nil, 0, false)
	})
}

func (c cpuBackend) SoftmaxBackward(y, dy, dx []float32, n, v int) {
	tmp := c.g.arena.get(n * v)
	copy(tmp, dy)
	softmaxBackwardRows(tmp, v, y, n, v, band{})
	axpy(dx, tmp, 1)
}
