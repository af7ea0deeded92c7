package model

import (
	"fmt"
	"slices"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// pagedRun decodes three sentences whose rows leave the batch at different
// steps (sentence 0 after two steps, sentence 2 after three, sentence 1
// branching into two rows), with pages of pageSteps steps, and returns
// each step's logits, the fed tokens of every row and its sentence, and
// the rows the cache allocated per layer.
func pagedRun(t *testing.T, m *Transformer, half bool, pageSteps int) (logits [][]float32, fed [][][]int32, sents [][]int, rows int) {
	t.Helper()
	defer func(k int) { cachePageSteps = k }(cachePageSteps)
	cachePageSteps = pageSteps
	src := []int32{4, 5, 6, 7, 2, 8, 9, 2, 0, 0, 10, 11, 12, 2, 0}
	const b, s, maxLen = 3, 5, 20
	g := engine.NewInference()
	if half {
		g.SetCompute(engine.ComputeType{Products: engine.FormatF32, Cache: engine.FormatF16})
	}
	st := m.StartDecoding(g, m.Encode(g, src, b, s, Collect{}), 2*b, maxLen, nil)
	g.Reset()
	hist := [][]int32{{}, {}, {}}
	reorders := map[int][]int{2: {1, 1, 2}, 3: {0, 1}, 5: {1}}
	for step := 0; step < 7; step++ {
		if r, ok := reorders[step]; ok {
			st.Reorder(r)
			next := make([][]int32, len(r))
			for i, from := range r {
				next[i] = slices.Clone(hist[from])
			}
			hist = next
		}
		tokens := make([]int32, st.Rows())
		for i := range tokens {
			tokens[i] = int32(2 + (3*step+5*i)%20)
			if step == 0 {
				tokens[i] = 2
			}
			hist[i] = append(hist[i], tokens[i])
		}
		out := m.Step(g, st, tokens)
		logits = append(logits, slices.Clone(out.Data))
		rowSent := make([]int, st.Rows())
		for i := range rowSent {
			rowSent[i] = st.Sentence(i)
		}
		sents = append(sents, rowSent)
		snap := make([][]int32, len(hist))
		for i := range hist {
			snap[i] = slices.Clone(hist[i])
		}
		fed = append(fed, snap)
		g.Reset()
	}
	return logits, fed, sents, st.(*transformerState).cache.rows()
}

// A cache in pages of one or two steps gives, bit for bit, the logits of
// one page holding every step, float32 and float16, and those of full
// recomputation, with rows leaving the batch at different steps; and it
// allocates about what the steps wrote, not maxRows × maxLen.
func TestPagedCacheMatchesFullDecode(t *testing.T) {
	m := incrementalModel(t, NormPre)
	srcs := [][]int32{{4, 5, 6, 7, 2}, {8, 9, 2}, {10, 11, 12, 2}}
	v := m.cfg.TgtVocab
	for _, half := range []bool{false, true} {
		want, fed, sents, oneRows := pagedRun(t, m, half, 100)
		for _, pageSteps := range []int{1, 2} {
			got, _, _, rows := pagedRun(t, m, half, pageSteps)
			for step := range want {
				if !slices.Equal(got[step], want[step]) {
					t.Fatalf("half %v, pages of %d steps: step %d logits differ from one page's", half, pageSteps, step)
				}
			}
			// rows fed 3, 3, 3, 2, 2, 1, 1 (15), in pages of 6 (or 12)
			// rows holding whole steps; one page, as the cache was
			// allocated before, has 6 × 20
			if rows > 24 || oneRows != 120 {
				t.Errorf("half %v, pages of %d steps: %d cache rows a layer for 15 written (one page: %d)", half, pageSteps, rows, oneRows)
			}
		}
		if half {
			continue // the half cache's rounding is checked in halfcache_test.go
		}
		for step := range want {
			for i, tokens := range fed[step] {
				src := srcs[sents[step][i]]
				full := fullLogits(m, src, 1, len(src), tokens, len(tokens))
				assertClose(t, fmt.Sprintf("step %d row %d", step, i), want[step][i*v:(i+1)*v], full[step*v:(step+1)*v])
			}
		}
	}
}
