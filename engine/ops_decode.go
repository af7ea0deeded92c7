package engine

import (
	"fmt"
	"math"
)

// KVRows locates keys and values that live outside the graph (a decoder's
// self-attention cache, an encoder memory projected once per batch) for
// StepAttention. Each row of Data holds a key at column KCol and a value at
// column VCol, D wide each; consecutive rows are LD floats apart. Index[i·tk+j]
// is the row holding key j of query i, so beams can share an encoder memory
// and a reordered beam can keep reading its ancestors' cache rows: nothing
// is copied when beams are reordered or sentences leave the batch.
type KVRows struct {
	Data       []float32
	LD         int
	KCol, VCol int
	Index      []int32
	// Pad marks ignored keys (n×tk, true = ignore); nil means none.
	Pad []bool
}

// StepAttention is multi-head attention of one query per row (an
// incremental decoding step) over tk keys per row found through kv. q is
// n×D read from its column view; the result is the n×D context (heads
// concatenated) and the probabilities n×H×tk. It is inference-only: it
// records no backward pass (decoding never needs one), and it panics on a
// recording graph whose query needs a gradient, rather than silently
// dropping it.
//
// Why not Attention: Attention reads each batch element's keys from a
// contiguous block of exactly Tk rows. A cache preallocated for the longest
// output would need a stride of Tmax rows, and beam reordering would need
// the cache rows copied every step (fairseq's index_select over the whole
// cache); an index per key costs a few ints per step instead.
func (g *Graph) StepAttention(q Cols, n, tk, heads int, kv KVRows) (ctx, probs *Tensor) {
	d := q.T.Cols() - q.Col
	if kd := kv.LD - kv.KCol; kd < d {
		d = kd
	}
	if vd := kv.LD - kv.VCol; vd < d {
		d = vd
	}
	switch {
	case heads <= 0 || d%heads != 0:
		panic(fmt.Sprintf("engine.StepAttention: width %d for %d heads", d, heads))
	case q.T.Rows() != n || len(kv.Index) != n*tk:
		panic(fmt.Sprintf("engine.StepAttention: q %v and %d key indices for n=%d tk=%d", q.T.Shape(), len(kv.Index), n, tk))
	case kv.Pad != nil && len(kv.Pad) != n*tk:
		panic(fmt.Sprintf("engine.StepAttention: key padding mask of %d for n=%d tk=%d", len(kv.Pad), n, tk))
	case g.record && q.T.needGrad:
		panic("engine.StepAttention: inference only, but the query needs a gradient")
	}
	rows := len(kv.Data) / kv.LD
	for _, r := range kv.Index {
		if r < 0 || int(r) >= rows {
			panic(fmt.Sprintf("engine.StepAttention: key row %d outside %d rows", r, rows))
		}
	}
	dh := d / heads
	scale := float32(1 / math.Sqrt(float64(dh)))
	ldq := q.T.Cols()
	ctx = g.newTensor(nil, n, d)
	probs = g.newTensor(nil, n, heads, tk)
	g.parallel(n*heads, 2*tk*dh, func(_, lo, hi int) {
		for job := lo; job < hi; job++ {
			i, h := job/heads, job%heads
			qi := q.T.Data[i*ldq+q.Col+h*dh : i*ldq+q.Col+(h+1)*dh]
			idx := kv.Index[i*tk : (i+1)*tk]
			p := probs.Data[job*tk : (job+1)*tk]
			for j, r := range idx {
				off := int(r)*kv.LD + kv.KCol + h*dh
				p[j] = scale * dot(qi, kv.Data[off:off+dh])
			}
			var pad []bool
			if kv.Pad != nil {
				pad = kv.Pad[i*tk : (i+1)*tk]
			}
			maskedSoftmax(p, 1, tk, pad, 0, false)
			out := ctx.Data[i*d+h*dh : i*d+(h+1)*dh]
			clear(out)
			for j, r := range idx {
				if p[j] != 0 {
					off := int(r)*kv.LD + kv.VCol + h*dh
					axpy(out, kv.Data[off:off+dh], p[j])
				}
			}
		}
	})
	return ctx, probs
}

// dot is a 4-way unrolled inner product (the compiler does not vectorise;
// independent accumulators hide the add latency).
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}
