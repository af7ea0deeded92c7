package decode

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// Searcher decodes batches of sentences with one model or an ensemble. It
// owns two inference graphs (one for the encoder, reset per batch, one reset
// every step) and the decoder state buffers, which it recycles across
// batches; it is not safe for concurrent use (kernels are parallel inside).
type Searcher struct {
	ms      []model.Model
	opt     Options
	pad     int32
	encG, g *engine.Graph
	st      members
	short   *Shortlist
	// Turn, when not nil, is called before the encoder pass and before
	// every decoding step of a search. A server shares the CPU between
	// batches with it: the call may block while other batches take their
	// turn. It must not use the searcher. Searches give the same results
	// with it as without.
	Turn func()
}

// NewSearcher checks the options and prepares a searcher.
func NewSearcher(m model.Model, opt Options) (*Searcher, error) {
	return NewEnsembleSearcher([]model.Model{m}, opt)
}

// NewEnsembleSearcher prepares a searcher that decodes with the mean of the
// models' next-token distributions. The models must share the vocabulary
// (and so the data directory) they were trained with.
func NewEnsembleSearcher(ms []model.Model, opt Options) (*Searcher, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("decode: no model to search with")
	}
	c0 := ms[0].Config()
	for i, m := range ms[1:] {
		if c := m.Config(); c.SrcVocab != c0.SrcVocab || c.TgtVocab != c0.TgtVocab || c.PadID != c0.PadID {
			return nil, fmt.Errorf("ensemble member %d has vocabularies of %d/%d tokens (pad %d), member 1 %d/%d (pad %d): they were not trained on the same data",
				i+2, c.SrcVocab, c.TgtVocab, c.PadID, c0.SrcVocab, c0.TgtVocab, c0.PadID)
		}
	}
	s := &Searcher{ms: ms, opt: opt, pad: int32(c0.PadID),
		encG: engine.NewInference(), g: engine.NewInference(), st: newMembers(ms, false)}
	ct := opt.Compute()
	s.encG.SetCompute(ct)
	s.g.SetCompute(ct)
	if opt.Shortlist != "" {
		sl, err := cachedShortlist(opt.Shortlist)
		if err != nil {
			return nil, err
		}
		if sl.Header.Vocab != c0.TgtVocab {
			return nil, fmt.Errorf("%s: shortlist for a vocabulary of %d tokens, the model has %d", opt.Shortlist, sl.Header.Vocab, c0.TgtVocab)
		}
		s.short = sl
	}
	return s, nil
}

// ForceRecompute makes the searcher re-run the decoder over whole prefixes
// even when the model decodes incrementally (tests compare the two).
func (s *Searcher) ForceRecompute() { s.st = newMembers(s.ms, true) }

// Incremental reports whether steps use cached decoder state.
func (s *Searcher) Incremental() bool { return s.st.incremental() }

// Options returns the search options.
func (s *Searcher) Options() Options { return s.opt }

// HeldBytes is the memory the searcher's graph arenas hold (in use or
// cached for reuse); the decoder caches are not counted.
func (s *Searcher) HeldBytes() int { return s.encG.HeldBytes() + s.g.HeldBytes() }

// SetOptions changes the options of later searches and keeps the graphs and
// decoder state: a server that varies the beam per request would otherwise
// hold one searcher, with its own arenas and decoder caches, per beam size.
// The compute type and the shortlist, which NewSearcher sets the graphs up
// for, cannot change; an empty compute type keeps the searcher's.
func (s *Searcher) SetOptions(opt Options) error {
	if opt.ComputeType == "" {
		opt.ComputeType = s.opt.ComputeType
	}
	if err := opt.Validate(); err != nil {
		return err
	}
	if opt.ComputeType != s.opt.ComputeType || opt.Shortlist != s.opt.Shortlist || opt.HalfCache() != s.opt.HalfCache() || opt.Int8Bits != s.opt.Int8Bits {
		return fmt.Errorf("decode: SetOptions cannot change the compute type (%q to %q), the shortlist (%q to %q), the cache type (%q to %q) or the int8 activation width (%d to %d): make a new searcher",
			s.opt.ComputeType, opt.ComputeType, s.opt.Shortlist, opt.Shortlist, s.opt.CacheType, opt.CacheType, s.opt.Int8Bits, opt.Int8Bits)
	}
	s.opt = opt
	return nil
}

// SetThreads fixes kernel parallelism of both graphs.
func (s *Searcher) SetThreads(n int) { s.encG.SetThreads(n); s.g.SetThreads(n) }

// Search decodes every source (encoder input ids, tags and EOS included, no
// padding), each output forced to start with prefix (the decoder input
// before the first generated token: DecoderStart, then a language tag under
// S-ENC-T-DEC). It returns, per source, up to NBest hypotheses, best first.
func (s *Searcher) Search(srcs [][]int32, prefix []int32) [][]Hypothesis {
	if len(srcs) == 0 {
		return nil
	}
	if len(prefix) == 0 {
		panic("decode: empty decoder prefix (it starts with the decoder start token)")
	}
	b := len(srcs)
	width := 0
	for _, x := range srcs {
		if len(x) == 0 {
			panic("decode: empty source (it ends with EOS at least)")
		}
		width = max(width, len(x))
	}
	src := padded(srcs, nil, b, width, s.pad)
	maxLen := make([]int, b)
	longest := 0
	for i, x := range srcs {
		n := len(x)
		if s.opt.BatchMaxLen {
			n = width
		}
		maxLen[i] = s.opt.maxLen(n)
		longest = max(longest, maxLen[i])
	}
	// With incremental state, which copies what it needs of the encoder
	// output, the encoder runs in the step graph, so that one arena holds
	// the larger of the encoder's and a step's buffers, not their sum. The
	// recomputing fallback reads the encoder output at every step, so it
	// keeps it in a graph of its own.
	//
	// The arena is emptied before the encoder and again before the first
	// step: the encoder's buffers (batch × width rows) and the steps'
	// (rows × beam) hardly fit one another's size classes, and an arena
	// caching both for the whole batch held the encoder's largest use
	// through every step, and the steps' through the next encoder, in each
	// decoder of a pool. Allocating them again per batch costs little: a
	// batch decodes for about a second.
	eg := s.encG
	s.encG.Reset()
	if s.st.incremental() {
		eg = s.g
		s.g.ResetAndDrop()
	} else {
		s.g.Reset()
	}
	if s.short != nil {
		s.g.SetOutputRows(engine.NewRowSubset(s.short.Rows(srcs)))
	}
	s.turn()
	encs := s.st.encode(eg, src, b, width)
	rows := b * s.opt.rowsPerSentence()
	s.st.start(eg, encs, rows, len(prefix)+longest)
	if s.st.incremental() {
		// the state owns copies of what it needs of the encoder output
		s.g.ResetAndDrop()
	}
	for _, t := range prefix[:len(prefix)-1] {
		s.step(fill(b, t))
	}
	first := s.step(fill(b, prefix[len(prefix)-1]))
	r := &run{s: s, srcs: srcs, prefix: prefix, maxLen: maxLen, fin: make([][]Hypothesis, b)}
	switch {
	case s.opt.Greedy:
		r.greedy(first)
	case s.opt.Sampling.On:
		r.sample(first)
	default:
		r.beam(first)
	}
	for i, f := range r.fin {
		slices.SortStableFunc(f, func(a, b Hypothesis) int { return -cmpFloat(a.Score, b.Score) })
		r.fin[i] = f[:min(len(f), s.opt.NBest)]
	}
	return r.fin
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func fill(n int, t int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = t
	}
	return out
}

// step feeds one token per row and returns the log-probabilities of the
// next token (valid until the next step).
func (s *Searcher) step(tokens []int32) *engine.Tensor {
	s.turn()
	s.g.Reset()
	return s.st.step(s.g, tokens)
}

// turn calls Turn, if set.
func (s *Searcher) turn() {
	if s.Turn != nil {
		s.Turn()
	}
}

// run is the search over one batch.
type run struct {
	s      *Searcher
	srcs   [][]int32 // encoder inputs
	prefix []int32
	maxLen []int
	fin    [][]Hypothesis
}

// adjust applies the search constraints to one row of log-probabilities
// before candidates are chosen, in fairseq's order: pad is never chosen,
// <unk> pays its penalty, EOS is forced at max_len (and, with RepeatStop,
// once the output repeats itself) and forbidden before min_len, and
// repeated n-grams are blocked.
func (r *run) adjust(lp []float32, step, maxLen int, tokens []int32) {
	o := r.s.opt
	inf := float32(math.Inf(-1))
	lp[r.s.pad] = inf
	if o.UnkPenalty != 0 && data.UNKID < len(lp) {
		lp[data.UNKID] -= float32(o.UnkPenalty)
	}
	switch {
	case step >= maxLen || repeating(tokens, o.RepeatStop):
		e := lp[data.EOSID]
		for j := range lp {
			lp[j] = inf
		}
		lp[data.EOSID] = e
	case step < o.MinLen:
		lp[data.EOSID] = inf
	}
	if o.NoRepeatNgram > 0 {
		banRepeats(lp, r.prefix, tokens, o.NoRepeatNgram)
	}
}

// banRepeats forbids every token that would complete an n-gram already
// present in the decoder input (prefix then generated tokens), as fairseq's
// NGramRepeatBlock does over the whole decoder input.
func banRepeats(lp []float32, prefix, tokens []int32, n int) {
	seq := append(slices.Clip(prefix), tokens...)
	m := len(seq)
	if m < n-1 {
		return
	}
	key := seq[m-(n-1):]
	for i := 0; i+n <= m; i++ {
		if slices.Equal(seq[i:i+n-1], key) {
			lp[seq[i+n-1]] = float32(math.Inf(-1))
		}
	}
}

// finish records a hypothesis ending in EOS at step with cumulative score.
func (r *run) finish(sent int, tokens []int32, pos []float32, eosLP float32, score float64, step int) {
	h := Hypothesis{
		Tokens:     append(slices.Clip(tokens), data.EOSID),
		Positional: append(slices.Clip(pos), eosLP),
		LogProb:    score,
		Score:      score / math.Pow(float64(step+1), r.s.opt.LenPen),
	}
	r.fin[sent] = append(r.fin[sent], h)
}

// greedy extends each sentence's single row by its most probable token.
func (r *run) greedy(lp *engine.Tensor) {
	sent := make([]int, len(r.maxLen))
	for i := range sent {
		sent[i] = i
	}
	r.extendRows(lp, sent, func(_ int, row []float32) int {
		best := 0
		for j, x := range row {
			if x > row[best] {
				best = j
			}
		}
		if math.IsInf(float64(row[best]), -1) {
			return -1
		}
		return best
	}, nil)
}

// extendRows runs the searches that keep one hypothesis per row (greedy,
// sampling): every step, row i (of sentence sent[i]) takes the token
// choose(i, row) picks from its adjusted log-probabilities; EOS finishes
// the row, -1 (every token blocked) drops it without a hypothesis. kept,
// when set, learns which rows go on, in order, so that per-row state of the
// caller can follow them.
func (r *run) extendRows(lp *engine.Tensor, sent []int, choose func(i int, row []float32) int, kept func(keep []int)) {
	n := len(sent)
	tokens, pos, score := make([][]int32, n), make([][]float32, n), make([]float64, n)
	for step := 0; ; step++ {
		v := lp.Cols()
		var keep []int
		var next []int32
		for i, si := range sent {
			row := lp.Data[i*v : (i+1)*v]
			r.adjust(row, step, r.maxLen[si], tokens[i])
			tok := choose(i, row)
			if tok < 0 {
				continue
			}
			x := row[tok]
			if tok == data.EOSID {
				r.finish(si, tokens[i], pos[i], x, score[i]+float64(x), step)
				continue
			}
			keep = append(keep, i)
			next = append(next, int32(tok))
			tokens[i] = append(tokens[i], int32(tok))
			pos[i] = append(pos[i], x)
			score[i] += float64(x)
		}
		if len(keep) == 0 {
			return
		}
		sent, tokens, pos, score = pick(sent, keep), pick(tokens, keep), pick(pos, keep), pick(score, keep)
		if kept != nil {
			kept(keep)
		}
		r.s.st.reorder(keep)
		lp = r.s.step(next)
	}
}

func pick[T any](xs []T, idx []int) []T {
	out := make([]T, len(idx))
	for i, j := range idx {
		out[i] = xs[j]
	}
	return out
}

// parallelFor runs fn(i) for i in [0, n) on up to GOMAXPROCS goroutines.
func parallelFor(n int, fn func(i int)) {
	w := min(n, runtime.GOMAXPROCS(0))
	if w <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < w; k++ {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				fn(i)
			}
		}(k*n/w, (k+1)*n/w)
	}
	wg.Wait()
}
