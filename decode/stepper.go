package decode

import (
	"fmt"
	"slices"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// stepper feeds the decoder one token per row: incrementally through
// model.Incremental when the architecture has it, by re-running Decode over
// each row's whole prefix otherwise (correct for any model, O(length²)).
type stepper struct {
	m     model.Model
	inc   model.Incremental
	state model.DecoderState
	reuse model.DecoderState
}

func newStepper(m model.Model, forceRecompute bool) *stepper {
	s := &stepper{m: m}
	if inc, ok := m.(model.Incremental); ok && !forceRecompute {
		s.inc = inc
	}
	return s
}

// start begins a batch. enc must stay valid until the batch is done (its
// graph is not Reset in between) for the recomputing fallback.
func (s *stepper) start(g *engine.Graph, enc *model.EncoderOut, maxRows, maxLen int) {
	if s.inc != nil {
		s.state = s.inc.StartDecoding(g, enc, maxRows, maxLen, s.reuse)
		s.reuse = s.state
		return
	}
	st := &recomputeState{m: s.m, enc: enc, sent: make([]int, enc.B), fed: make([][]int32, enc.B)}
	for i := range st.sent {
		st.sent[i] = i
	}
	s.state = st
}

// step feeds tokens and returns next-token logits (rows × V) in g.
func (s *stepper) step(g *engine.Graph, tokens []int32) *engine.Tensor {
	if s.inc != nil {
		return s.inc.Step(g, s.state, tokens)
	}
	return s.state.(*recomputeState).step(g, tokens)
}

// members are the models of an ensemble (one for a single model), each
// with its own decoder state. A step feeds every member the same tokens and
// combines their next-token distributions by the mean of probabilities, as
// fairseq's ensemble does (log of the mean, not the mean of
// log-probabilities): a hypothesis one member rules out stays possible.
type members []*stepper

func newMembers(ms []model.Model, forceRecompute bool) members {
	out := make(members, len(ms))
	for i, m := range ms {
		out[i] = newStepper(m, forceRecompute)
	}
	return out
}

// incremental reports whether every member decodes from cached state.
func (ms members) incremental() bool {
	for _, s := range ms {
		if s.inc == nil {
			return false
		}
	}
	return true
}

// encode runs every member's encoder over the same source in g.
func (ms members) encode(g *engine.Graph, src []int32, b, s int) []*model.EncoderOut {
	encs := make([]*model.EncoderOut, len(ms))
	for i, st := range ms {
		encs[i] = st.m.Encode(g, src, b, s, model.Collect{})
	}
	return encs
}

func (ms members) start(g *engine.Graph, encs []*model.EncoderOut, maxRows, maxLen int) {
	for i, s := range ms {
		s.start(g, encs[i], maxRows, maxLen)
	}
}

// step returns the (combined) next-token log-probabilities in g.
func (ms members) step(g *engine.Graph, tokens []int32) *engine.Tensor {
	if len(ms) == 1 {
		// the logits are not read again: normalized where they are
		return g.LogSoftmaxInPlace(ms[0].step(g, tokens))
	}
	lps := make([]*engine.Tensor, len(ms))
	for i, s := range ms {
		lps[i] = g.LogSoftmaxInPlace(s.step(g, tokens))
	}
	return g.LogMeanExp(lps...)
}

// reorder keeps, in every member, the state rows given in order.
func (ms members) reorder(rows []int) {
	for _, s := range ms {
		s.state.Reorder(rows)
	}
}

// recomputeState implements model.DecoderState for models without
// incremental decoding: it keeps each row's fed tokens and runs the full
// decoder over them at every step.
type recomputeState struct {
	m    model.Model
	enc  *model.EncoderOut
	sent []int
	fed  [][]int32
}

func (r *recomputeState) Rows() int { return len(r.sent) }

func (r *recomputeState) Len() int {
	if len(r.fed) == 0 {
		return 0
	}
	return len(r.fed[0])
}

func (r *recomputeState) Sentence(row int) int { return r.sent[row] }

func (r *recomputeState) Reorder(rows []int) {
	sent, fed := make([]int, len(rows)), make([][]int32, len(rows))
	for i, p := range rows {
		sent[i], fed[i] = r.sent[p], slices.Clip(r.fed[p])
	}
	r.sent, r.fed = sent, fed
}

func (r *recomputeState) step(g *engine.Graph, tokens []int32) *engine.Tensor {
	n := len(r.sent)
	if len(tokens) != n {
		panic(fmt.Sprintf("decode: step with %d tokens for %d rows", len(tokens), n))
	}
	for i, t := range tokens {
		r.fed[i] = append(r.fed[i], t)
	}
	t := r.Len()
	in := make([]int32, 0, n*t)
	for _, f := range r.fed {
		in = append(in, f...)
	}
	logits := r.m.Decode(g, expandEncoder(g, r.enc, r.sent), in, t, model.Collect{}).Logits
	last := make([]int, n)
	for i := range last {
		last[i] = i*t + t - 1
	}
	return g.GatherRows(logits, last)
}

// expandEncoder gives every decoder row its sentence's encoder output.
func expandEncoder(g *engine.Graph, enc *model.EncoderOut, sent []int) *model.EncoderOut {
	s := enc.S
	idx := make([]int, 0, len(sent)*s)
	pad := make([]bool, 0, len(sent)*s)
	for _, b := range sent {
		for j := 0; j < s; j++ {
			idx = append(idx, b*s+j)
		}
		pad = append(pad, enc.KeyPad[b*s:(b+1)*s]...)
	}
	done := map[*engine.Tensor]*engine.Tensor{}
	gather := func(t *engine.Tensor) *engine.Tensor {
		if t == nil {
			return nil
		}
		if x, ok := done[t]; ok {
			return x
		}
		var x *engine.Tensor
		switch t.Rows() {
		case enc.B * s: // per source token
			x = g.GatherRows(t, idx)
		case enc.B: // per sentence (pooled MSC context)
			x = g.GatherRows(t, sent)
		default:
			panic(fmt.Sprintf("decode: encoder tensor %v is neither per token nor per sentence of B=%d S=%d", t.Shape(), enc.B, s))
		}
		done[t] = x
		return x
	}
	out := &model.EncoderOut{B: len(sent), S: s, KeyPad: pad, Out: gather(enc.Out), Embedded: gather(enc.Embedded)}
	for _, m := range enc.Memories {
		out.Memories = append(out.Memories, gather(m))
	}
	for _, c := range enc.Context {
		out.Context = append(out.Context, gather(c))
	}
	return out
}
