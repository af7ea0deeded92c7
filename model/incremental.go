package model

import (
	"fmt"

	"github.com/strata-nmt/strata/engine"
)

// Incremental is implemented by architectures that can decode one token at
// a time from cached state, so that a step costs O(current length) instead
// of a re-run of the decoder over the whole prefix. The decode package uses
// it when a model has it and falls back to full recomputation otherwise.
type Incremental interface {
	Model
	// StartDecoding prepares to decode the B sentences of enc, starting with
	// one decoder row per sentence (row i decodes sentence i). The state
	// holds everything it needs in memory it owns, so the graphs that
	// computed enc and earlier steps may be Reset. maxRows bounds the rows
	// Reorder may create (B·beam), maxLen the tokens one row is fed
	// (forced prefix included). reuse, when not nil, is a state from an
	// earlier StartDecoding of this model whose buffers are recycled; it
	// must not be used afterwards.
	StartDecoding(g *engine.Graph, enc *EncoderOut, maxRows, maxLen int, reuse DecoderState) DecoderState
	// Step feeds one token per row (len(tokens) == st.Rows()) and returns
	// the logits of the next token, Rows × TgtVocab, in g's arena. The
	// graph must be an inference graph.
	Step(g *engine.Graph, st DecoderState, tokens []int32) *engine.Tensor
}

// DecoderState is a batch of partial outputs being decoded.
type DecoderState interface {
	// Rows is the number of rows being decoded.
	Rows() int
	// Len is the number of tokens each row has been fed.
	Len() int
	// Sentence is the encoder batch element row i decodes.
	Sentence(row int) int
	// Reorder makes new row i the continuation of old row rows[i]: rows may
	// repeat an old row (beams branching) and leave some out (hypotheses
	// dropped, sentences finished).
	Reorder(rows []int)
}

// transformerState is the Transformer's decoder state. Self-attention keys
// and values are stored by step: the K|V of the token fed at step t to row
// slot s is row off(t)+s of the cache page holding step t. Each row
// records, per step, which cache row its ancestor wrote (hist), so
// reordering beams copies a few ints per row instead of the cache itself.
type transformerState struct {
	b, s            int
	maxRows, maxLen int
	rows, len       int
	sent            []int       // encoder batch element of each row
	hist, histTmp   []int32     // rows × maxLen cache-row indices (within the page of their step)
	mem             [][]float32 // per layer: encoder keys|values, B·S × 2D
	memPad          []bool      // B×S
	cache           kvCache
	selfIdx         []int32
	block           []int32 // per row: its sentence, the block of keys it reads in mem
}

func (s *transformerState) Rows() int            { return s.rows }
func (s *transformerState) Len() int             { return s.len }
func (s *transformerState) Sentence(row int) int { return s.sent[row] }

func (s *transformerState) Reorder(rows []int) {
	if len(rows) > s.maxRows {
		panic(fmt.Sprintf("model: Reorder to %d rows, state has room for %d", len(rows), s.maxRows))
	}
	sent := make([]int, len(rows))
	for i, r := range rows {
		if r < 0 || r >= s.rows {
			panic(fmt.Sprintf("model: Reorder from row %d of %d", r, s.rows))
		}
		sent[i] = s.sent[r]
		copy(s.histTmp[i*s.maxLen:i*s.maxLen+s.len], s.hist[r*s.maxLen:r*s.maxLen+s.len])
	}
	s.hist, s.histTmp = s.histTmp, s.hist
	s.sent, s.rows = sent, len(rows)
}

// grow returns buf resized to n, reallocating only when it is too small.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}

// growRoomy is grow with a quarter of headroom when it must reallocate:
// the decoder's buffers are sized by batch width and maximum length, which
// rise from batch to batch of length-sorted input, and reallocating them
// for every batch left hundreds of megabytes of garbage between
// collections. It also reallocates a buffer more than four times larger
// than needed: one batch of many rows or long outputs (a server's beam-16
// request of long lines) would otherwise pin its buffers for the life of
// the process.
//
// The first allocation is exact: input sorted longest first (strata
// translate's batches, the benchmark's) starts with its largest batch.
func growRoomy[T any](buf []T, n int) []T {
	switch {
	case cap(buf) == 0:
		return make([]T, n)
	case cap(buf) < n || cap(buf) > 4*n+1024:
		return make([]T, n, n+n/4)
	}
	return buf[:n]
}

// newTransformerState initialises st (recycling its buffers) for a batch,
// leaving the encoder memories (st.mem) to the caller, which projects them
// with its own layers.
func newTransformerState(g *engine.Graph, st *transformerState, enc *EncoderOut, maxRows, maxLen, layers, d int) *transformerState {
	if maxRows < enc.B {
		panic(fmt.Sprintf("model: StartDecoding with room for %d rows for %d sentences", maxRows, enc.B))
	}
	if st == nil {
		st = &transformerState{}
	}
	cache := st.cache
	// a half cache (a float16 cache in engine.ComputeType) takes half the memory
	cache.start(g.HalfCache(), layers, 2*d, maxRows, maxLen)
	*st = transformerState{
		b: enc.B, s: enc.S, maxRows: maxRows, maxLen: maxLen, rows: enc.B,
		sent:    make([]int, enc.B),
		hist:    growRoomy(st.hist, maxRows*maxLen),
		histTmp: growRoomy(st.histTmp, maxRows*maxLen),
		mem:     grow(st.mem, layers), cache: cache,
		memPad:  append(st.memPad[:0], enc.KeyPad...),
		selfIdx: st.selfIdx[:0], block: st.block[:0],
	}
	for i := range st.sent {
		st.sent[i] = i
	}
	return st
}

// StartDecoding implements Incremental.
func (m *Transformer) StartDecoding(g *engine.Graph, enc *EncoderOut, maxRows, maxLen int, reuse DecoderState) DecoderState {
	st, _ := reuse.(*transformerState)
	st = newTransformerState(g, st, enc, maxRows, maxLen, len(m.Dec), m.cfg.DModel)
	for l, layer := range m.Dec {
		st.mem[l] = ownCopy(g, st.mem[l], func() *engine.Tensor { return layer.Cross.Memory(g, enc.Memories[l]) })
	}
	return st
}

// ownCopy copies the values f computes in g into buf (recycled, as
// growRoomy) and gives the buffers f took back to g's arena: the state
// owns its copy, and the six projected memories of a 6-layer decoder no
// longer sit in the arena beside it until the first step's Reset (the
// arena keeps its largest use at once, which they raised by a third on
// the decoding benchmark).
func ownCopy(g *engine.Graph, buf []float32, f func() *engine.Tensor) []float32 {
	mark := g.Mark()
	x := f().Data
	buf = append(growRoomy(buf, len(x))[:0], x...)
	if !g.Recording() {
		g.ReleaseSince(mark)
	}
	return buf
}

// Step implements Incremental.
func (m *Transformer) Step(g *engine.Graph, state DecoderState, tokens []int32) *engine.Tensor {
	st := state.(*transformerState)
	n, t := st.rows, st.len
	if len(tokens) != n {
		panic(fmt.Sprintf("model: Step with %d tokens for %d rows", len(tokens), n))
	}
	if t >= st.maxLen {
		panic(fmt.Sprintf("model: Step beyond the %d positions the state was started with", st.maxLen))
	}
	st.index(n, t)
	d := m.cfg.DModel
	x := m.embed(g, m.Emb.Tgt, tokens, 1, t)
	for l, layer := range m.Dec {
		x = stepLayer(g, func() *engine.Tensor {
			y := stepSelfAttention(g, layer, st, l, x)
			y = layer.CrossSub.Apply(g, y, func(h *engine.Tensor) *engine.Tensor {
				return stepAttend(g, layer.Cross, h, st.memory(l, d))
			})
			return layer.FFNSub.Apply(g, y, func(h *engine.Tensor) *engine.Tensor { return layer.FFN.Apply(g, h) })
		})
	}
	st.len++
	return decoderTop(g, &m.cfg, m.DecLN, m.Emb, x)
}

// index records step t's cache rows and builds the key indices of the
// self-attention of this step and each row's encoder block.
func (st *transformerState) index(n, t int) {
	off := st.cache.next(n, st.maxRows, st.maxLen-t)
	for i := 0; i < n; i++ {
		st.hist[i*st.maxLen+t] = int32(off + i)
	}
	st.selfIdx = grow(st.selfIdx, n*(t+1))
	for i := 0; i < n; i++ {
		copy(st.selfIdx[i*(t+1):(i+1)*(t+1)], st.hist[i*st.maxLen:i*st.maxLen+t+1])
	}
	st.block = grow(st.block, n)
	for i := range st.block {
		st.block[i] = int32(st.sent[i])
	}
}

// memory is decoder layer l's projected encoder memory as attention keys:
// a block of S keys per sentence.
func (st *transformerState) memory(l, d int) engine.KVBlocks {
	return engine.KVBlocks{Data: st.mem[l], LD: 2 * d, VCol: d, TK: st.s, Block: st.block, Pad: st.memPad}
}

// Helpers of one decoding step, shared by the Transformer and the deep
// architectures built on its layers.

func checkStep(st *transformerState, tokens []int32) {
	if len(tokens) != st.rows {
		panic(fmt.Sprintf("model: Step with %d tokens for %d rows", len(tokens), st.rows))
	}
	if st.len >= st.maxLen {
		panic(fmt.Sprintf("model: Step beyond the %d positions the state was started with", st.maxLen))
	}
}

// stepLayer runs one decoder layer of a step and gives its intermediates
// back to the arena, as encoderLayer does: a step then holds one layer's
// buffers instead of every layer's (a 6-layer decoder's step of 160 rows
// held about 80 buffers of rows × D until the graph's Reset).
func stepLayer(g *engine.Graph, layer func() *engine.Tensor) *engine.Tensor {
	return encoderLayer(g, Collect{}, layer)
}

// stepSelfAttention runs the masked self-attention sub-layer of decoder
// layer l for one step, appending this step's keys and values to the cache
// (Transformer.Step and the MSC steps share it).
func stepSelfAttention(g *engine.Graph, layer DecoderLayer, st *transformerState, l int, x *engine.Tensor) *engine.Tensor {
	n, t, d := st.rows, st.len, x.Cols()
	kv := engine.KVRows{Pages: st.cache.layer(l), LD: 2 * d, VCol: d, Index: st.selfIdx}
	return layer.SelfSub.Apply(g, x, func(h *engine.Tensor) *engine.Tensor {
		qkv := layer.Self.QKV.Apply(g, h)
		page, off := kv.Pages[len(kv.Pages)-1], st.cache.off
		if page.Half != nil {
			g.StoreRowsHalf(page.Half, 2*d, off, engine.Cols{T: qkv, Col: d}, 2*d)
		} else {
			g.StoreRows(page.Data, 2*d, off, engine.Cols{T: qkv, Col: d}, 2*d)
		}
		ctx, _ := g.StepAttention(engine.Cols{T: qkv}, n, t+1, layer.Self.Heads, kv)
		return layer.Self.Out.Apply(g, ctx)
	})
}

// stepAttend is one step of attention a from queries h over a projected
// memory of one block of keys per sentence.
func stepAttend(g *engine.Graph, a CrossAttention, h *engine.Tensor, kv engine.KVBlocks) *engine.Tensor {
	ctx, _ := g.BlockAttention(engine.Cols{T: a.Q.Apply(g, h)}, h.Rows(), a.Heads, kv)
	return a.Out.Apply(g, ctx)
}
