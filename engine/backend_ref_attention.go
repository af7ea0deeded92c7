package engine

import "math"

// The reference backend's attention: per batch element, head and query,
// softmax(Scale·q·Kᵀ) over the visible keys and its product with V, every
// sum in float64. The backward pass recomputes the probabilities in
// float64 rather than reading the forward pass's float32 copies.

// attnJob is one (batch element, head) pair's offsets into the operands.
type attnJob struct{ bi, head, q, k, v, ctx int }

func (a *AttnArgs) job(job int) attnJob {
	bi, head := job/a.Heads, job%a.Heads
	return attnJob{bi, head,
		bi*a.Tq*a.Ldq + head*a.Dh, bi*a.Tk*a.Ldk + head*a.Dh, bi*a.Tk*a.Ldv + head*a.Dh,
		bi*a.Tq*a.Heads*a.Dh + head*a.Dh}
}

// visible reports whether query i of batch element bi sees key j.
func (a *AttnArgs) visible(bi, i, j int) bool {
	if a.KeyPad != nil && a.KeyPad[bi*a.Tk+j] {
		return false
	}
	return !a.Causal || j <= i+a.Tk-a.Tq
}

// attnProbs writes query i's probabilities over the Tk keys to p: exactly
// 0 for masked keys, all 0 when every key is masked.
func (a *AttnArgs) attnProbs(q, k []float32, jb attnJob, i int, p []float64) {
	for j := range p {
		p[j] = math.Inf(-1)
		if !a.visible(jb.bi, i, j) {
			continue
		}
		var s float64
		for c := 0; c < a.Dh; c++ {
			s += float64(q[jb.q+i*a.Ldq+c]) * float64(k[jb.k+j*a.Ldk+c])
		}
		p[j] = float64(a.Scale) * s
	}
	refSoftmaxMasked(p)
}

// refSoftmaxMasked turns scores, -Inf where a key is masked, into
// probabilities in place: masked keys get exactly 0, and a row whose keys
// are all masked is all zeros (the engine's convention, not NaN).
func refSoftmaxMasked(s []float64) {
	mx := math.Inf(-1)
	for _, v := range s {
		mx = math.Max(mx, v)
	}
	if math.IsInf(mx, -1) {
		clear(s)
		return
	}
	var sum float64
	for j, v := range s {
		s[j] = math.Exp(v - mx) // Exp(-Inf) is 0
		sum += s[j]
	}
	for j := range s {
		s[j] /= sum
	}
}

// dropFactor is what dropout multiplies probability j of query i of a job
// by: DropScale or 0, or 1 without dropout.
func (a *AttnArgs) dropFactor(dropping bool, job, i, j int) float64 {
	if !dropping {
		return 1
	}
	if DropKeep(a.DropKey, job*a.Tq*a.Tk+i*a.Tk+j, a.DropThreshold) {
		return float64(a.DropScale)
	}
	return 0
}

func (r *refBackend) AttentionForward(a AttnArgs, q, k, v, ctx, probs, dropped []float32) {
	tq, tk, dh, d := a.Tq, a.Tk, a.Dh, a.Heads*a.Dh
	p := make([]float64, tk)
	for job := 0; job < a.B*a.Heads; job++ {
		jb := a.job(job)
		for i := 0; i < tq; i++ {
			a.attnProbs(q, k, jb, i, p)
			row := job*tq*tk + i*tk
			for j, pj := range p {
				probs[row+j] = float32(pj)
				p[j] = pj * a.dropFactor(dropped != nil, job, i, j)
				if dropped != nil {
					dropped[row+j] = float32(p[j])
				}
			}
			for c := 0; c < dh; c++ {
				var s float64
				for j, pj := range p {
					s += pj * float64(v[jb.v+j*a.Ldv+c])
				}
				ctx[jb.ctx+i*d+c] = float32(s)
			}
		}
	}
}

func (r *refBackend) AttentionBackward(a AttnArgs, q, k, v, _, dropped, dctx, dq, dk, dv []float32) {
	tq, tk, dh, d := a.Tq, a.Tk, a.Dh, a.Heads*a.Dh
	sc := float64(a.Scale)
	p, ds := make([]float64, tk), make([]float64, tk)
	// one job's gradients, added to the destinations once
	gq, gk, gv := make([]float64, tq*dh), make([]float64, tk*dh), make([]float64, tk*dh)
	for job := 0; job < a.B*a.Heads; job++ {
		jb := a.job(job)
		clear(gq)
		clear(gk)
		clear(gv)
		for i := 0; i < tq; i++ {
			a.attnProbs(q, k, jb, i, p)
			dc := dctx[jb.ctx+i*d : jb.ctx+i*d+dh]
			var dot float64 // Σ_j dP_j·P_j
			for j, pj := range p {
				m := a.dropFactor(dropped != nil, job, i, j)
				var du float64 // dC·v_j: the gradient of P̃_j
				for c, g := range dc {
					du += float64(g) * float64(v[jb.v+j*a.Ldv+c])
					gv[j*dh+c] += pj * m * float64(g)
				}
				ds[j] = du * m
				dot += ds[j] * pj
			}
			for j, pj := range p {
				ds[j] = pj * (ds[j] - dot) // the scores' gradient
				for c := 0; c < dh; c++ {
					gq[i*dh+c] += sc * ds[j] * float64(k[jb.k+j*a.Ldk+c])
					gk[j*dh+c] += sc * ds[j] * float64(q[jb.q+i*a.Ldq+c])
				}
			}
		}
		addRowsF64(dq, jb.q, a.Ldq, gq, dh)
		addRowsF64(dk, jb.k, a.Ldk, gk, dh)
		addRowsF64(dv, jb.v, a.Ldv, gv, dh)
	}
}

// addRowsF64 adds the rows of g (w wide) to dst's rows ld apart from off,
// rounding once; a nil dst needs no gradient.
func addRowsF64(dst []float32, off, ld int, g []float64, w int) {
	if dst == nil {
		return
	}
	for i := 0; i < len(g)/w; i++ {
		for c := 0; c < w; c++ {
			o := off + i*ld + c
			dst[o] = float32(float64(dst[o]) + g[i*w+c])
		}
	}
}
