package decode

import (
	"math"
	"slices"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/engine"
)

// group is the rows [start, start+n) of one live sentence.
type group struct{ sent, start, n int }

// cand is a candidate extension: row's hypothesis followed by tok, with
// cumulative log-probability score.
type cand struct {
	score float64
	row   int
	tok   int32
	lp    float32
}

// beam runs fairseq's beam search. Every step, each live sentence takes
// its 2·beam best (row, token) extensions over all its rows. An EOS among
// the first beam of them ends a hypothesis (until the sentence has beam
// of them); the beam best non-EOS extensions continue. A sentence is done
// once it has beam finished hypotheses or reaches max_len (where only EOS
// is allowed), and leaves the batch. At the first step every sentence has
// one row (all beams would be identical), so the decoder runs B rows there
// instead of B·beam.
func (r *run) beam(lp *engine.Tensor) {
	beam := r.s.opt.Beam
	b := len(r.maxLen)
	groups := make([]group, b)
	tokens, pos, score := make([][]int32, b), make([][]float32, b), make([]float64, b)
	for i := range groups {
		groups[i] = group{sent: i, start: i, n: 1}
	}
	cands := make([][]cand, b)
	for step := 0; ; step++ {
		v := lp.Cols()
		parallelFor(len(groups), func(k int) {
			gr := groups[k]
			for row := gr.start; row < gr.start+gr.n; row++ {
				r.adjust(lp.Data[row*v:(row+1)*v], step, r.maxLen[gr.sent], tokens[row])
			}
			cands[k] = topCandidates(cands[k][:0], lp.Data, v, gr, score, 2*beam)
		})
		var next []group
		var parents []int
		var feed []int32
		var nTok [][]int32
		var nPos [][]float32
		var nScore []float64
		for k, gr := range groups {
			cs := cands[k]
			for _, c := range cs[:min(beam, len(cs))] {
				if c.tok == data.EOSID && !math.IsInf(c.score, -1) && len(r.fin[gr.sent]) < beam {
					r.finish(gr.sent, tokens[c.row], pos[c.row], c.lp, c.score, step)
				}
			}
			if len(r.fin[gr.sent]) >= beam || step >= r.maxLen[gr.sent] {
				continue
			}
			ng := group{sent: gr.sent, start: len(parents)}
			for _, c := range cs {
				if ng.n == beam {
					break
				}
				if c.tok == data.EOSID || math.IsInf(c.score, -1) {
					continue
				}
				parents = append(parents, c.row)
				feed = append(feed, c.tok)
				nTok = append(nTok, append(slices.Clip(tokens[c.row]), c.tok))
				nPos = append(nPos, append(slices.Clip(pos[c.row]), c.lp))
				nScore = append(nScore, c.score)
				ng.n++
			}
			if ng.n > 0 {
				next = append(next, ng)
			}
		}
		if len(next) == 0 {
			return
		}
		groups, tokens, pos, score = next, nTok, nPos, nScore
		r.s.st.reorder(parents)
		lp = r.s.step(feed)
	}
}

// topCandidates returns the k best extensions of the rows of gr, best
// first; ties keep the lower (row, token) first, as a stable sort would.
// A bounded insertion list beats a heap for k = 2·beam ≤ a few dozen. Once
// the list is full, a float32 bound a little below the k-th score minus
// the row's base skips almost every token with one comparison; tokens
// passing it get the exact float64 test.
func topCandidates(dst []cand, lp []float32, v int, gr group, base []float64, k int) []cand {
	inf := float32(math.Inf(-1))
	for row := gr.start; row < gr.start+gr.n; row++ {
		b := base[row]
		lim := inf
		bound := func() {
			if len(dst) == k {
				lim = math.Nextafter32(float32(dst[k-1].score-b), inf)
			}
		}
		bound()
		for j, x := range lp[row*v : (row+1)*v] {
			if x < lim {
				continue
			}
			sc := b + float64(x)
			if len(dst) == k && !(sc > dst[k-1].score) {
				continue
			}
			at := len(dst)
			for at > 0 && sc > dst[at-1].score {
				at--
			}
			c := cand{score: sc, row: row, tok: int32(j), lp: x}
			if len(dst) < k {
				dst = append(dst, cand{})
			}
			copy(dst[at+1:], dst[at:len(dst)-1])
			dst[at] = c
			bound()
		}
	}
	return dst
}
