package engine

import (
	"fmt"
	"math"
)

// Cols selects a block of columns [Col, Col+width) of a tensor without
// copying. Attention reads queries, keys and values through such views so
// that one fused projection (x·[Wq;Wk;Wv]ᵀ) feeds it directly.
type Cols struct {
	T   *Tensor
	Col int
}

// AttnOptions configure Attention.
type AttnOptions struct {
	Heads int
	// KeyPad marks padded keys (B×Tk, true = ignore); nil means none.
	KeyPad []bool
	// Causal hides key j from query i when j > i + (Tk - Tq): with Tq == Tk
	// this is the decoder's look-ahead mask; with Tq == 1 nothing is hidden.
	Causal  bool
	Dropout float32
}

// Attention is multi-head scaled dot-product attention. q is (B·Tq)×D,
// k and v are (B·Tk)×D with D = heads·dh, each read from its column view.
// It returns the (B·Tq)×D context (heads concatenated, before the output
// projection) and the attention probabilities, B×H×Tq×Tk, after masking and
// before dropout (the weights analyses plot).
//
// The numbers come from the backend (AttentionForward, AttentionBackward).
// On the CPU the masked softmax is fused with the score product; each
// (batch, head) pair is an independent job of three small GEMMs, and jobs
// are spread over goroutines. Jobs write disjoint blocks, so backward needs
// no locks.
func (g *Graph) Attention(q, k, v Cols, b, tq, tk int, o AttnOptions) (ctx, probs *Tensor) {
	h := o.Heads
	if h <= 0 {
		panic("engine.Attention: Heads must be positive")
	}
	d := g.attnWidth(q, k, v, b, tq, tk, o)
	dh := d / h
	a := AttnArgs{B: b, Tq: tq, Tk: tk, Heads: h, Dh: dh,
		Ldq: q.T.Cols(), Ldk: k.T.Cols(), Ldv: v.T.Cols(),
		Scale: float32(1 / math.Sqrt(float64(dh))), KeyPad: o.KeyPad, Causal: o.Causal}
	ctx = g.newTensor([]*Tensor{q.T, k.T, v.T}, b*tq, d)
	probs = g.newTensor(nil, b, h, tq, tk)
	var dropped []float32 // probabilities after dropout, when on
	pDrop := o.Dropout
	if !g.DropoutOn {
		pDrop = 0
	}
	if pDrop > 0 {
		a.DropKey = g.nextDropKey(b*h*tq*tk, true)
		dropped = g.be.Alloc(b * h * tq * tk)
	}
	a.DropThreshold = uint32(float64(pDrop) * (1 << 32))
	a.DropScale = 1 / (1 - pDrop)
	qd, kd, vd := q.T.Data[q.Col:], k.T.Data[k.Col:], v.T.Data[v.Col:]
	g.be.AttentionForward(a, qd, kd, vd, ctx.Data, probs.Data, dropped)
	g.push(ctx, func() {
		if ctx.Grad == nil {
			return
		}
		// When q, k and v are views of one tensor, their gradients share
		// one buffer, at the views' columns.
		var dq, dk, dv []float32
		if q.T.needGrad {
			dq = g.grad(q.T)[q.Col:]
		}
		if k.T.needGrad {
			dk = g.grad(k.T)[k.Col:]
		}
		if v.T.needGrad {
			dv = g.grad(v.T)[v.Col:]
		}
		g.be.AttentionBackward(a, qd, kd, vd, probs.Data, dropped, ctx.Grad, dq, dk, dv)
	})
	return ctx, probs
}

// AttentionForward on the CPU: each (batch, head) pair is a job of three
// small products around the fused masked softmax; jobs are spread over
// the graph's threads and write disjoint blocks.
func (c cpuBackend) AttentionForward(a AttnArgs, q, k, v, ctx, probs, dropped []float32) {
	g := c.g
	b, tq, tk, h, dh := a.B, a.Tq, a.Tk, a.Heads, a.Dh
	ldq, ldk, ldv, d := a.Ldq, a.Ldk, a.Ldv, h*dh
	ib := AttnOptions{Causal: a.Causal}.bands(tq, tk)
	ls := scoreStride(tk)
	per := dh*ls + tq*ls // the packed Kᵀ and the scores of one job
	packed := g.arena.get(g.chunks(b*h, tq*tk*dh) * per)
	g.parallel(b*h, tq*tk*dh, func(chunk, lo, hi int) {
		kt := packed[chunk*per : chunk*per+dh*ls]
		sc := packed[chunk*per+dh*ls : (chunk+1)*per]
		for job := lo; job < hi; job++ {
			bi, head := job/h, job%h
			qo, ko, vo := bi*tq*ldq+head*dh, bi*tk*ldk+head*dh, bi*tk*ldv+head*dh
			p := probs[job*tq*tk : (job+1)*tq*tk]
			transpose(kt, ls, k[ko:], tk, dh, ldk) // S = scale·Q·Kᵀ
			attnGemmPadded(tq, tk, ls, dh, a.Scale, q[qo:], ldq, 1, kt, ls, sc, ls, false, ib.cols)
			maskedSoftmaxFrom(sc, ls, p, tq, tk, a.KeyPad, bi, a.Causal)
			use := p
			if dropped != nil {
				use = dropped[job*tq*tk : (job+1)*tq*tk]
				for i := range use {
					if keep(a.DropKey, job*tq*tk+i, a.DropThreshold) {
						use[i] = p[i] * a.DropScale
					} else {
						use[i] = 0
					}
				}
			}
			// C = P·V
			attnGemm(tq, dh, tk, 1, use, tk, 1, v[vo:], ldv, ctx[bi*tq*d+head*dh:], d, false, ib.inner)
		}
	})
	g.arena.recycle(packed)
}

func (g *Graph) attnWidth(q, k, v Cols, b, tq, tk int, o AttnOptions) int {
	// A view runs from its column to the end of its tensor, except that
	// views into a fused projection ([Q|K|V]) run into their neighbours:
	// the narrowest view is the model width.
	d := -1
	for _, c := range []Cols{q, k, v} {
		w := c.T.Cols() - c.Col
		if d < 0 || w < d {
			d = w
		}
	}
	if q.T.Rows() != b*tq || k.T.Rows() != b*tk || v.T.Rows() != b*tk || d%o.Heads != 0 {
		panic(fmt.Sprintf("engine.Attention: q %v k %v v %v for B=%d Tq=%d Tk=%d heads=%d",
			q.T.Shape(), k.T.Shape(), v.T.Shape(), b, tq, tk, o.Heads))
	}
	if o.KeyPad != nil && len(o.KeyPad) != b*tk {
		panic(fmt.Sprintf("engine.Attention: key padding mask of %d for B=%d Tk=%d", len(o.KeyPad), b, tk))
	}
	return d
}

// scoreStride is the row stride of attention's scores and their gradient
// (tk rounded up to 8): the products that make them then run in whole
// register tiles, the columns past tk being computed from the packed
// operand's zero padding and never read.
func scoreStride(tk int) int { return (tk + 7) &^ 7 }

// maskedSoftmax turns the tq×tk scores of batch element bi into
// probabilities, giving masked keys exactly zero weight. A row with every key
// masked becomes all zeros rather than NaN. Masked scores are set to -Inf,
// whose exponential expSums makes exactly 0, so each row is one vectorised
// pass.
func maskedSoftmax(p []float32, tq, tk int, keyPad []bool, bi int, causal bool) {
	maskedSoftmaxFrom(p, tk, p, tq, tk, keyPad, bi, causal)
}

// maskedSoftmaxFrom is maskedSoftmax reading the scores from s, rows ls
// apart (it masks them there and leaves the exponentials there), and
// writing the probabilities to p (which may be s when ls == tk). The
// padding columns [tk, ls) are masked too, so that every row is whole
// vectors of the kernels: they add exact zeros to the sums.
func maskedSoftmaxFrom(s []float32, ls int, p []float32, tq, tk int, keyPad []bool, bi int, causal bool) {
	var pad []bool
	if keyPad != nil {
		pad = keyPad[bi*tk : (bi+1)*tk]
	}
	inf := float32(math.Inf(-1))
	for i := 0; i < tq; i++ {
		row, out := s[i*ls:(i+1)*ls], p[i*tk:(i+1)*tk]
		first := tk // the first masked column of a causal row
		if causal {
			first = max(0, i+tk-tq+1)
		}
		for j := first; j < ls; j++ {
			row[j] = inf
		}
		for j, m := range pad {
			if m {
				row[j] = inf
			}
		}
		mx := rowMax(row) // the padding is -Inf: whole vectors, the same max
		if mx == inf {
			clear(out)
			continue
		}
		sum, _ := expSums(row, mx, row)
		inv := float32(1 / sum)
		if &row[0] == &out[0] {
			mulSub(out, inv, 0)
			continue
		}
		// a scaled copy in one pass: a copy after scaling in place cost as
		// much as the softmax (p is cold memory)
		scaleTo(out, row, inv)
	}
}

// AttentionBackward on the CPU, job by job as the forward pass. When q, k
// and v are views of one tensor, each job still writes only its own batch
// rows and head columns of each view, so jobs never overlap.
func (c cpuBackend) AttentionBackward(a AttnArgs, q, k, v, probs, dropped, dctx, dq, dk, dv []float32) {
	g := c.g
	b, tq, tk, h, dh := a.B, a.Tq, a.Tk, a.Heads, a.Dh
	ldq, ldk, ldv, d := a.Ldq, a.Ldk, a.Ldv, h*dh
	scale := a.Scale
	ib := AttnOptions{Causal: a.Causal}.bands(tq, tk)
	ls := scoreStride(tk)
	per := tq*ls + dh*ls // dP and the packed Vᵀ of one job
	scratch := g.arena.get(g.chunks(b*h, tq*tk*dh) * per)
	g.parallel(b*h, tq*tk*dh, func(chunk, lo, hi int) {
		dp := scratch[chunk*per : chunk*per+tq*ls]
		vt := scratch[chunk*per+tq*ls : (chunk+1)*per]
		for job := lo; job < hi; job++ {
			bi, head := job/h, job%h
			qo, ko, vo := bi*tq*ldq+head*dh, bi*tk*ldk+head*dh, bi*tk*ldv+head*dh
			co := bi*tq*d + head*dh
			p := probs[job*tq*tk : (job+1)*tq*tk]
			used := p
			if dropped != nil {
				used = dropped[job*tq*tk : (job+1)*tq*tk]
			}
			if dv != nil { // dV += P̃ᵀ·dC
				attnGemm(tk, dh, tq, 1, used, 1, tk, dctx[co:], d, dv[vo:], ldv, true, ib.innerFrom)
			}
			// dP̃ = dC·Vᵀ, then back through dropout and the softmax:
			// dS = P ⊙ (dP - rowsum(dP ⊙ P))
			transpose(vt, ls, v[vo:], tk, dh, ldv)
			attnGemmPadded(tq, tk, ls, dh, 1, dctx[co:], d, 1, vt, ls, dp, ls, false, ib.cols)
			if dropped != nil {
				for i := 0; i < tq; i++ {
					row := dp[i*ls : i*ls+tk]
					for j := range row {
						if keep(a.DropKey, job*tq*tk+i*tk+j, a.DropThreshold) {
							row[j] *= a.DropScale
						} else {
							row[j] = 0
						}
					}
				}
			}
			softmaxBackwardRows(dp, ls, p, tq, tk, ib.cols)
			if dq != nil { // dQ += scale·dS·K
				attnGemm(tq, dh, tk, scale, dp, ls, 1, k[ko:], ldk, dq[qo:], ldq, true, ib.inner)
			}
			if dk != nil { // dK += scale·dSᵀ·Q
				attnGemm(tk, dh, tq, scale, dp, 1, ls, q[qo:], ldq, dk[ko:], ldk, true, ib.innerFrom)
			}
		}
	})
	g.arena.recycle(scratch)
}

// attnBands are the causal mask's bands for each product of a job (none
// without the mask): key j is visible to query i when j <= i + tk - tq.
type attnBands struct{ cols, inner, innerFrom band }

func (o AttnOptions) bands(tq, tk int) attnBands {
	if !o.Causal {
		return attnBands{}
	}
	off := tk - tq
	return attnBands{band{Kind: bandCols, Off: off}, band{Kind: bandInner, Off: off}, band{Kind: bandInnerFrom, Off: off}}
}

// softmaxBackwardRows replaces dp (rows ldp apart) by
// P ⊙ (dp - Σ_j dp_j P_j), row by row, over the first cols columns.
// Under a causal band only the visible columns of dp are read (the others
// were never computed) and the rest of the row becomes 0.
func softmaxBackwardRows(dp []float32, ldp int, p []float32, rows, cols int, bd band) {
	for i := 0; i < rows; i++ {
		n := cols
		if bd.Kind == bandCols {
			n = max(0, min(cols, i+bd.Off+1))
		}
		dr, pr := dp[i*ldp:i*ldp+n], p[i*cols:i*cols+n]
		var dot float64
		for j, pv := range pr {
			dot += float64(dr[j]) * float64(pv)
		}
		fd := float32(dot)
		for j, pv := range pr {
			dr[j] = pv * (dr[j] - fd)
		}
		clear(dp[i*ldp+n : i*ldp+cols])
	}
}
