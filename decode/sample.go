package decode

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/strata-nmt/strata/engine"
)

// Sampling draws each output token from the model's distribution instead
// of searching for the most probable output, as fairseq's --sampling does
// for back-translation: the distribution (after the search constraints of
// adjust) is divided by Temperature, cut to the TopK most probable tokens
// and/or the smallest set holding TopP of the probability, renormalised,
// and sampled. NBest independent samples are drawn per sentence.
//
// The random stream of a sample is seeded by (Seed, source tokens, sample
// number), not by the position of the sentence in its batch, so a line's
// samples do not depend on how the input was batched or buffered.
type Sampling struct {
	On          bool
	TopK        int     // 0: no cut
	TopP        float64 // 0 or 1: no cut
	Temperature float64 // 0 means 1
	Seed        uint64
}

func (s Sampling) validate() error {
	switch {
	case s.TopK < 0:
		return fmt.Errorf("sampling top-k %d is negative", s.TopK)
	case s.TopP < 0 || s.TopP > 1:
		return fmt.Errorf("sampling top-p %g: must be in (0, 1]", s.TopP)
	case s.Temperature < 0:
		return fmt.Errorf("sampling temperature %g is negative", s.Temperature)
	}
	return nil
}

// sampleSeed is the seed of sample k of a source.
func sampleSeed(seed uint64, src []int32, k int) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(x uint64) {
		for i := range b {
			b[i] = byte(x >> (8 * i))
		}
		h.Write(b[:])
	}
	put(seed)
	put(uint64(k))
	for _, t := range src {
		put(uint64(t))
	}
	return h.Sum64()
}

// sample runs sampling over the batch: one row per (sentence, sample),
// each drawing its own tokens until EOS or max_len.
func (r *run) sample(lp *engine.Tensor) {
	n := r.s.opt.NBest
	b := len(r.maxLen)
	var sent []int // row → sentence, and the first step's row to copy
	var rngs []*rand.Rand
	for i := 0; i < b; i++ {
		for k := 0; k < n; k++ {
			sent = append(sent, i)
			rngs = append(rngs, rand.New(rand.NewPCG(sampleSeed(r.s.opt.Sampling.Seed, r.srcs[i], k), 1)))
		}
	}
	// The first step ran one row per sentence; give each sample its row.
	lp = r.s.g.GatherRows(lp, sent)
	r.s.st.reorder(sent)
	work, idx := make([]float64, lp.Cols()), make([]int, lp.Cols())
	r.extendRows(lp, sent, func(i int, row []float32) int {
		return drawToken(row, r.s.opt.Sampling, rngs[i], work, idx)
	}, func(keep []int) { rngs = pick(rngs, keep) })
}

// drawToken samples a token from a row of log-probabilities under the
// sampling settings, or returns -1 when every token is blocked. work and
// idx are scratch space of the row's length.
func drawToken(row []float32, o Sampling, rng *rand.Rand, work []float64, idx []int) int {
	temp := o.Temperature
	if temp == 0 {
		temp = 1
	}
	// candidates: finite entries, most probable first when a cut needs order
	cand := idx[:0]
	top := math.Inf(-1)
	for j, x := range row {
		if !math.IsInf(float64(x), -1) {
			cand = append(cand, j)
			top = max(top, float64(x))
		}
	}
	if len(cand) == 0 {
		return -1
	}
	topK, topP := o.TopK > 0 && o.TopK < len(cand), o.TopP > 0 && o.TopP < 1
	weight := func(j int) float64 { return math.Exp((float64(row[j]) - top) / temp) }
	switch {
	case topK:
		cand = topKOrdered(row, cand, o.TopK)
	case topP:
		// the smallest best-first prefix holding TopP of the mass
		var total, acc float64
		for _, j := range cand {
			total += weight(j)
		}
		cand = bestFirst(row, cand, func(j int) bool { acc += weight(j); return acc >= o.TopP*total })
	}
	p := work[:len(cand)]
	var sum float64
	for k, j := range cand {
		p[k] = weight(j)
		sum += p[k]
	}
	if topK && topP {
		// top-p within the k kept tokens, which are in order
		var acc float64
		for k := range p {
			acc += p[k]
			if acc >= o.TopP*sum {
				cand, p, sum = cand[:k+1], p[:k+1], acc
				break
			}
		}
	}
	u := rng.Float64() * sum
	for k, w := range p {
		u -= w
		if u < 0 {
			return cand[k]
		}
	}
	return cand[len(cand)-1] // rounding left u ≥ 0 at the end
}

// before orders token indices by descending score, ties by ascending index:
// the order of a stable descending sort of the row.
func before(row []float32, a, b int) int {
	if c := cmp.Compare(row[b], row[a]); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// A top-k or top-p cut needs the most probable tokens in order; sorting the
// whole vocabulary row every step (O(V log V), about 8 ms for 10k tokens)
// would cost more than the step's matrix products, so both cuts use heaps
// over cand's own storage (go test ./decode -bench Cut).

// topKOrdered returns the first k of cand in before's order, in that order:
// a size-k heap rooted at the worst kept token, O(V log k).
func topKOrdered(row []float32, cand []int, k int) []int {
	h := cand[:k]
	worse := func(a, b int) bool { return before(row, h[a], h[b]) > 0 }
	for i := k/2 - 1; i >= 0; i-- {
		siftDown(h, i, k, worse)
	}
	for _, j := range cand[k:] {
		if before(row, j, h[0]) < 0 {
			h[0] = j
			siftDown(h, 0, k, worse)
		}
	}
	slices.SortFunc(h, func(a, b int) int { return before(row, a, b) })
	return h
}

// bestFirst pops cand's tokens in before's order until done, called with
// each popped token, says enough, and returns them in that order: a heap of
// the whole row, O(V + k log V) for k popped tokens, for a top-p cut whose
// k is not known in advance.
func bestFirst(row []float32, cand []int, done func(j int) bool) []int {
	better := func(a, b int) bool { return before(row, cand[a], cand[b]) < 0 }
	for i := len(cand)/2 - 1; i >= 0; i-- {
		siftDown(cand, i, len(cand), better)
	}
	// popped tokens collect at the end, best last
	end := len(cand)
	for end > 0 {
		end--
		cand[0], cand[end] = cand[end], cand[0]
		siftDown(cand, 0, end, better)
		if done(cand[end]) {
			break
		}
	}
	out := cand[end:]
	slices.Reverse(out)
	return out
}

// siftDown restores the heap h[:n] below i, where up(a, b) says that the
// element at a belongs above the one at b.
func siftDown(h []int, i, n int, up func(a, b int) bool) {
	for {
		w, l, r := i, 2*i+1, 2*i+2
		if l < n && up(l, w) {
			w = l
		}
		if r < n && up(r, w) {
			w = r
		}
		if w == i {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}
