package train

import (
	"math/rand/v2"

	"github.com/strata-nmt/strata/model"
)

// Source supplies training batches. An epoch's batch order must be a pure
// function of (seed, epoch) so that a run resumed at (epoch, index) sees
// exactly the batches an uninterrupted run would.
type Source interface {
	// Epoch returns the number of batches in epoch e (1-based) and a
	// function building batch i of it.
	Epoch(e int) (n int, batch func(i int) model.Batch)
}

// Synthetic is a generated task for tests and demos: random token strings
// (ids in [First, First+Symbols)) that the model must copy or reverse.
type Synthetic struct {
	Seed             uint64
	Symbols, First   int
	MinLen, MaxLen   int
	BatchSize, Count int // sentences per batch, batches per epoch
	Reverse          bool
	EOS, BOS, Pad    int32
}

// Epoch implements Source.
func (s Synthetic) Epoch(e int) (int, func(int) model.Batch) {
	return s.Count, func(i int) model.Batch {
		r := rand.New(rand.NewPCG(s.Seed, uint64(e)<<32|uint64(i)))
		return s.batch(r)
	}
}

// Valid returns n fixed batches (independent of any epoch).
func (s Synthetic) Valid(n int) []model.Batch {
	r := rand.New(rand.NewPCG(s.Seed^0xdead, 7))
	out := make([]model.Batch, n)
	for i := range out {
		out[i] = s.batch(r)
	}
	return out
}

// Pairs returns n (source, target) id sequences without special tokens.
func (s Synthetic) Pairs(n int, seed uint64) (src, tgt [][]int32) {
	r := rand.New(rand.NewPCG(seed, 11))
	for i := 0; i < n; i++ {
		a, b := s.pair(r)
		src, tgt = append(src, a), append(tgt, b)
	}
	return src, tgt
}

func (s Synthetic) pair(r *rand.Rand) (src, tgt []int32) {
	n := s.MinLen + r.IntN(s.MaxLen-s.MinLen+1)
	src = make([]int32, n)
	for j := range src {
		src[j] = int32(s.First + r.IntN(s.Symbols))
	}
	tgt = append([]int32(nil), src...)
	if s.Reverse {
		for a, b := 0, len(tgt)-1; a < b; a, b = a+1, b-1 {
			tgt[a], tgt[b] = tgt[b], tgt[a]
		}
	}
	return src, tgt
}

func (s Synthetic) batch(r *rand.Rand) model.Batch {
	var srcs, tgts [][]int32
	for k := 0; k < s.BatchSize; k++ {
		a, b := s.pair(r)
		srcs, tgts = append(srcs, a), append(tgts, b)
	}
	return MakeBatch(srcs, tgts, s.BOS, s.EOS, s.Pad)
}

// MakeBatch pads sequences into a model.Batch: encoder input src+eos,
// decoder input bos+tgt, decoder output tgt+eos (right padding).
func MakeBatch(srcs, tgts [][]int32, bos, eos, pad int32) model.Batch {
	b := len(srcs)
	s, t := 0, 0
	for i := range srcs {
		s, t = max(s, len(srcs[i])+1), max(t, len(tgts[i])+1)
	}
	bt := model.Batch{B: b, S: s, T: t, Src: make([]int32, b*s), TgtIn: make([]int32, b*t), TgtOut: make([]int32, b*t)}
	for i := range srcs {
		row := bt.Src[i*s : (i+1)*s]
		fill(row, pad)
		copy(row, srcs[i])
		row[len(srcs[i])] = eos
		in, out := bt.TgtIn[i*t:(i+1)*t], bt.TgtOut[i*t:(i+1)*t]
		fill(in, pad)
		fill(out, pad)
		in[0] = bos
		copy(in[1:], tgts[i])
		copy(out, tgts[i])
		out[len(tgts[i])] = eos
	}
	return bt
}

func fill(xs []int32, v int32) {
	for i := range xs {
		xs[i] = v
	}
}
