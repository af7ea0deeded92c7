package engine

import (
	"fmt"
	"math"

	"github.com/strata-nmt/strata/engine/internal/kernels"
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
	// Half, when not nil, holds the rows instead of Data, as binary16
	// (half.go), in the same layout.
	Half []uint16
	// Pages, when not nil, hold the rows instead of Data and Half: a cache
	// that grows page by page as a decoder writes it, instead of being
	// allocated for the longest output up front. Page p holds the rows of
	// key positions [Σ_{q<p} Keys_q, Σ_{q≤p} Keys_q) of every query (a
	// decoder writes all its rows' keys of one step into one page), and
	// Index[i·tk+j] is a row of the page holding position j.
	Pages []KVPage
}

// KVPage is one buffer of a paged KVRows: rows of floats (Data) or of
// binary16 halves (Half), laid out as KVRows.Data, holding Keys key
// positions.
type KVPage struct {
	Data []float32
	Half []uint16
	Keys int
}

// kvSpan is the keys [lo, hi) of every query, found in one buffer.
type kvSpan struct {
	data   []float32
	half   []uint16
	lo, hi int
}

// spans splits tk key positions into the buffers holding them.
func (kv KVRows) spans(tk int) []kvSpan {
	if kv.Pages == nil {
		return []kvSpan{{kv.Data, kv.Half, 0, tk}}
	}
	var out []kvSpan
	lo := 0
	for _, pg := range kv.Pages {
		if lo >= tk {
			break
		}
		out = append(out, kvSpan{pg.Data, pg.Half, lo, min(lo+pg.Keys, tk)})
		lo += pg.Keys
	}
	if lo < tk {
		panic(fmt.Sprintf("engine.StepAttention: pages hold %d key positions of %d", lo, tk))
	}
	return out
}

// check panics unless the buffers hold tk key positions and every index
// names a row of its buffer: the graph checks before any backend reads.
func (kv KVRows) check(n, tk int) {
	for _, sp := range kv.spans(tk) {
		rows := len(sp.data) / kv.LD
		if sp.half != nil {
			rows = len(sp.half) / kv.LD
		}
		for i := 0; i < n; i++ {
			for _, r := range kv.Index[i*tk+sp.lo : i*tk+sp.hi] {
				if r < 0 || int(r) >= rows {
					panic(fmt.Sprintf("engine.StepAttention: key row %d outside %d rows", r, rows))
				}
			}
		}
	}
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
	d := g.stepWidth("StepAttention", q, kv.LD, kv.KCol, kv.VCol, heads)
	switch {
	case q.T.Rows() != n || len(kv.Index) != n*tk:
		panic(fmt.Sprintf("engine.StepAttention: q %v and %d key indices for n=%d tk=%d", q.T.Shape(), len(kv.Index), n, tk))
	case kv.Pad != nil && len(kv.Pad) != n*tk:
		panic(fmt.Sprintf("engine.StepAttention: key padding mask of %d for n=%d tk=%d", len(kv.Pad), n, tk))
	}
	kv.check(n, tk)
	ctx = g.newTensor(nil, n, d)
	probs = g.newTensor(nil, n, heads, tk)
	g.be.StepAttention(q.T.Data[q.Col:], q.T.Cols(), n, tk, heads, d/heads, kv, ctx.Data, probs.Data)
	return ctx, probs
}

// StepAttention on the CPU: per (query, head) job, gathered dot products
// over the cache rows (assembly for head widths the kernels take), the
// masked softmax, and gathered axpys, page by page in key order.
func (c cpuBackend) StepAttention(q []float32, ldq, n, tk, heads, dh int, kv KVRows, ctx, probs []float32) {
	spans := kv.spans(tk)
	d := heads * dh
	scale := float32(1 / math.Sqrt(float64(dh)))
	c.g.parallel(n*heads, 2*tk*dh, func(_, lo, hi int) {
		for job := lo; job < hi; job++ {
			i, h := job/heads, job%heads
			qi := q[i*ldq+h*dh : i*ldq+(h+1)*dh]
			idx := kv.Index[i*tk : (i+1)*tk]
			p := probs[job*tk : (job+1)*tk]
			out := ctx[i*d+h*dh : i*d+(h+1)*dh]
			for _, sp := range spans {
				if sp.half != nil {
					gatherScoresHalf(p[sp.lo:sp.hi], qi, sp.half, kv.KCol+h*dh, kv.LD, idx[sp.lo:sp.hi], scale)
				} else {
					gatherScores(p[sp.lo:sp.hi], qi, sp.data, kv.KCol+h*dh, kv.LD, idx[sp.lo:sp.hi], scale)
				}
			}
			var pad []bool
			if kv.Pad != nil {
				pad = kv.Pad[i*tk : (i+1)*tk]
			}
			maskedSoftmax(p, 1, tk, pad, 0, false)
			clear(out)
			// page by page, in key order: the sum is the same, bit for bit,
			// as over one buffer
			for _, sp := range spans {
				if sp.half != nil {
					gatherSumHalf(out, p[sp.lo:sp.hi], sp.half, kv.VCol+h*dh, kv.LD, idx[sp.lo:sp.hi])
				} else {
					gatherSum(out, p[sp.lo:sp.hi], sp.data, kv.VCol+h*dh, kv.LD, idx[sp.lo:sp.hi])
				}
			}
		}
	})
}

// stepWidth is the width D of a decoding attention: the narrowest of the
// query view and the key and value views into rows ld floats wide (views
// into a fused projection run into their neighbours). It panics, naming op,
// unless D splits into heads, or when the query of a recording graph needs
// a gradient (the decoding attentions record no backward pass).
func (g *Graph) stepWidth(op string, q Cols, ld, kcol, vcol, heads int) int {
	d := min(q.T.Cols()-q.Col, ld-kcol, ld-vcol)
	if heads <= 0 || d%heads != 0 {
		panic(fmt.Sprintf("engine.%s: width %d for %d heads", op, d, heads))
	}
	if g.record && q.T.needGrad {
		panic(fmt.Sprintf("engine.%s: inference only, but the query needs a gradient", op))
	}
	return d
}

// KVBlocks is a memory of equal-length blocks of keys and values, one block
// per source sentence (an encoder memory projected once per batch): block
// b's keys are rows [b·TK, (b+1)·TK) of Data, key at column KCol and value
// at column VCol, rows LD floats apart. Query row i attends to block
// Block[i]; the beams of one sentence are consecutive rows reading the same
// block.
type KVBlocks struct {
	Data       []float32
	LD         int
	KCol, VCol int
	TK         int
	Block      []int32
	// Pad marks ignored keys (blocks×TK, true = ignore); nil means none.
	Pad []bool
}

// BlockAttention is StepAttention for queries whose keys are a shared
// block (encoder-decoder attention while decoding). Consecutive rows that
// read the same block form one run, and each (run, head) is two small
// matrix products through the BLAS backend, where StepAttention makes a
// vector dot product per query and key: the five beams of a sentence share
// one read of its keys. Results are n×D contexts and n×H×TK probabilities,
// as StepAttention's.
func (g *Graph) BlockAttention(q Cols, n, heads int, kv KVBlocks) (ctx, probs *Tensor) {
	d, tk := g.stepWidth("BlockAttention", q, kv.LD, kv.KCol, kv.VCol, heads), kv.TK
	blocks := len(kv.Data) / max(kv.LD*tk, 1)
	switch {
	case q.T.Rows() != n || len(kv.Block) != n || tk <= 0:
		panic(fmt.Sprintf("engine.BlockAttention: q %v and %d block indices for n=%d, %d keys per block", q.T.Shape(), len(kv.Block), n, tk))
	case kv.Pad != nil && len(kv.Pad) < blocks*tk:
		panic(fmt.Sprintf("engine.BlockAttention: key padding mask of %d for %d blocks of %d", len(kv.Pad), blocks, tk))
	}
	for _, b := range kv.Block {
		if b < 0 || int(b) >= blocks {
			panic(fmt.Sprintf("engine.BlockAttention: block %d outside %d blocks", b, blocks))
		}
	}
	ctx = g.newTensor(nil, n, d)
	probs = g.newTensor(nil, n, heads, tk)
	g.be.BlockAttention(q.T.Data[q.Col:], q.T.Cols(), n, heads, d/heads, kv, ctx.Data, probs.Data)
	return ctx, probs
}

// BlockAttention on the CPU: a (run, head) job is the gathered kernels of
// blockRunSmall for short runs where the head width is vectorised, else two
// matrix products through the BLAS backend around the masked softmax.
func (c cpuBackend) BlockAttention(q []float32, ldq, n, heads, dh int, kv KVBlocks, ctx, probs []float32) {
	tk := kv.TK
	blocks := len(kv.Data) / max(kv.LD*tk, 1)
	runs := blockRuns(kv.Block)
	d := heads * dh
	scale := float32(1 / math.Sqrt(float64(dh)))
	ldp := heads * tk
	var keyRows []int32
	if kernels.GatherRowsVectorized(dh) {
		keyRows = blockKeyRows(blocks, tk)
	}
	c.g.parallel(len(runs)*heads, 5*2*tk*dh, func(_, lo, hi int) {
		for job := lo; job < hi; job++ {
			r, h := runs[job/heads], job%heads
			m, b := r.end-r.start, int(kv.Block[r.start])
			p := probs[r.start*ldp+h*tk:]
			if keyRows != nil && m <= smallRunRows {
				blockRunSmall(q, ldq, r.start, m, h, dh, d, scale, kv, b, keyRows[b*tk:(b+1)*tk], p, ldp, ctx)
				continue
			}
			keys := kv.Data[b*tk*kv.LD+h*dh:]
			gemm1(false, true, m, tk, dh, scale, q[r.start*ldq+h*dh:], ldq,
				keys[kv.KCol:], kv.LD, 0, p, ldp)
			for i := 0; i < m; i++ {
				maskedSoftmax(p[i*ldp:i*ldp+tk], 1, tk, kv.Pad, b, false)
			}
			gemm1(false, false, m, dh, tk, 1, p, ldp, keys[kv.VCol:], kv.LD, 0, ctx[r.start*d+h*dh:], d)
		}
	})
}

// rowRun is the rows [start, end) reading one block.
type rowRun struct{ start, end int }

// blockRuns splits rows into maximal runs of equal block index.
func blockRuns(block []int32) []rowRun {
	var runs []rowRun
	for i := 0; i < len(block); {
		j := i + 1
		for j < len(block) && block[j] == block[i] {
			j++
		}
		runs = append(runs, rowRun{i, j})
		i = j
	}
	return runs
}

// StoreRows copies the columns [src.Col, src.Col+width) of every row of
// src into consecutive rows of dst starting at row first (rows ld floats
// apart): how a decoding step appends its keys and values to a cache that
// lives outside the graph. Inference only, like StepAttention.
func (g *Graph) StoreRows(dst []float32, ld, first int, src Cols, width int) {
	n, c := storeRowsShape("StoreRows", len(dst), ld, first, src, width)
	g.be.StoreRows(dst, ld, first, src.T.Data[src.Col:], c, n, width)
}

// StoreRows on the CPU: a copy per row.
func (c cpuBackend) StoreRows(dst []float32, ld, first int, src []float32, lds, n, width int) {
	for i := 0; i < n; i++ {
		copy(dst[(first+i)*ld:(first+i)*ld+width], src[i*lds:i*lds+width])
	}
}

// storeRowsShape checks that width columns of src fit rows first.. of a
// cache of size values in rows ld apart, and returns src's rows and
// columns (StoreRows and StoreRowsHalf).
func storeRowsShape(op string, size, ld, first int, src Cols, width int) (n, c int) {
	n, c = src.T.Rows(), src.T.Cols()
	if src.Col+width > c || width > ld || (first+n)*ld > size+ld-width {
		panic(fmt.Sprintf("engine.%s: %d columns from %d of %v into rows %d.. of %d×%d", op, width, src.Col, src.T.Shape(), first, size/ld, ld))
	}
	return n, c
}
