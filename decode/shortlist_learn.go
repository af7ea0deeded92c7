package decode

import (
	"fmt"
	"slices"

	"github.com/strata-nmt/strata/data"
)

// ShortlistOptions configure LearnShortlist.
type ShortlistOptions struct {
	// K is the number of target tokens kept per source token.
	K int
	// Frequent is the number of most frequent target tokens always kept.
	Frequent int
	// Score ranks the target tokens of a source token s by their
	// sentence-level co-occurrence counts c(s,t) (how many pairs hold s in
	// the source and t in the target), with c(s) and c(t) the number of
	// pairs holding each: "dice" (default) is 2·c(s,t)/(c(s)+c(t)), which
	// favours tokens that occur where s occurs and rarely elsewhere (the
	// translations); "cond" is c(s,t)/c(s), the co-occurrence estimate of
	// p(t|s) that Marian's lexical shortlists rank by (from alignments
	// there), which favours frequent targets.
	Score string
	// MinCount drops pairs seen together in fewer sentence pairs.
	MinCount int
}

// DefaultShortlistOptions: 50 tokens per source token, 2000 frequent ones.
// With a small joint subword vocabulary (8.6k on l10n en-de) the tokens a
// per-source list misses are word-internal target pieces, frequent overall
// but tied to no source token; the frequent set is what keeps them, and at
// batch 32 it costs no more rows than a larger k (docs/decoding.md).
func DefaultShortlistOptions() ShortlistOptions {
	return ShortlistOptions{K: 50, Frequent: 2000, Score: "dice", MinCount: 1}
}

// Validate checks the options for a vocabulary of vocab tokens, so that a
// command can refuse them before it reads or writes anything.
func (opt ShortlistOptions) Validate(vocab int) error {
	switch {
	case opt.K < 0 || opt.K > vocab:
		return fmt.Errorf("shortlist: --k %d: must be between 0 and the vocabulary size %d", opt.K, vocab)
	case opt.Frequent < 0:
		return fmt.Errorf("shortlist: --frequent %d: must be at least 0", opt.Frequent)
	case opt.Score != "dice" && opt.Score != "cond":
		return fmt.Errorf("shortlist: --score %q: want dice or cond", opt.Score)
	case opt.MinCount < 1:
		return fmt.Errorf("shortlist: --min-count %d: must be at least 1 (sentence pairs a source and target token share)", opt.MinCount)
	}
	return nil
}

// LearnShortlist learns a shortlist from a split's sentence pairs.
// vocab is the (target) vocabulary size.
func LearnShortlist(split *data.Split, vocab int, opt ShortlistOptions) (*Shortlist, error) {
	if err := opt.Validate(vocab); err != nil {
		return nil, err
	}
	n := split.Len()
	// each pair's distinct source and target tokens, flattened
	var srcU, tgtU []int32
	srcOff, tgtOff := make([]int, n+1), make([]int, n+1)
	cs, ct := make([]int32, vocab), make([]int32, vocab)
	freq := make([]int64, vocab)
	for i := 0; i < n; i++ {
		p, j := split.Locate(i)
		src, tgt := p.Pair(j)
		for _, t := range tgt {
			freq[t]++
		}
		srcU = appendDistinct(srcU, src, cs)
		tgtU = appendDistinct(tgtU, tgt, ct)
		srcOff[i+1], tgtOff[i+1] = len(srcU), len(tgtU)
	}
	s := &Shortlist{Header: ShortlistHeader{Format: shortlistFormat, Version: 1, K: opt.K, Frequent: opt.Frequent,
		Score: opt.Score, Vocab: vocab, Pairs: n}, BySource: make([][]int32, vocab)}
	s.Frequent = topFrequent(freq, opt.Frequent)
	isFrequent := make([]bool, vocab)
	for _, t := range s.Frequent {
		isFrequent[t] = true
	}
	// co-occurrence counts for a block of source tokens at a time (a dense
	// block of at most 16M counters), one pass over the pairs per block
	block := max(1, (16<<20)/vocab)
	cnt := make([]int32, block*vocab)
	for lo := 0; lo < vocab; lo += block {
		hi := min(vocab, lo+block)
		clear(cnt)
		for i := 0; i < n; i++ {
			tg := tgtU[tgtOff[i]:tgtOff[i+1]]
			for _, sv := range srcU[srcOff[i]:srcOff[i+1]] {
				if int(sv) < lo || int(sv) >= hi {
					continue
				}
				row := cnt[(int(sv)-lo)*vocab:]
				for _, t := range tg {
					row[t]++
				}
			}
		}
		for sv := lo; sv < hi; sv++ {
			if cs[sv] > 0 {
				s.BySource[sv] = topAssociated(cnt[(sv-lo)*vocab:(sv-lo+1)*vocab], cs[sv], ct, isFrequent, opt)
			}
		}
	}
	return s, nil
}

// appendDistinct appends ids' distinct values to dst and counts them.
func appendDistinct(dst, ids []int32, count []int32) []int32 {
	start := len(dst)
	dst = append(dst, ids...)
	seg := dst[start:]
	slices.Sort(seg)
	seg = slices.Compact(seg)
	for _, t := range seg {
		count[t]++
	}
	return dst[:start+len(seg)]
}

// topFrequent returns the k most frequent ids (ties by id).
func topFrequent(freq []int64, k int) []int32 {
	ids := make([]int32, 0, len(freq))
	for t, f := range freq {
		if f > 0 {
			ids = append(ids, int32(t))
		}
	}
	slices.SortStableFunc(ids, func(a, b int32) int {
		switch {
		case freq[a] > freq[b]:
			return -1
		case freq[a] < freq[b]:
			return 1
		}
		return 0
	})
	ids = ids[:min(k, len(ids))]
	slices.Sort(ids)
	return ids
}

// topAssociated ranks the targets co-occurring with one source token and
// keeps the K best that are not already frequent.
func topAssociated(cnt []int32, cs int32, ct []int32, frequent []bool, opt ShortlistOptions) []int32 {
	type scored struct {
		t     int32
		score float64
	}
	var cands []scored
	for t, c := range cnt {
		if c < int32(max(opt.MinCount, 1)) || frequent[t] {
			continue
		}
		sc := float64(c) / float64(cs)
		if opt.Score == "dice" {
			sc = 2 * float64(c) / float64(cs+ct[t])
		}
		cands = append(cands, scored{int32(t), sc})
	}
	slices.SortStableFunc(cands, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	out := make([]int32, 0, min(opt.K, len(cands)))
	for _, c := range cands[:min(opt.K, len(cands))] {
		out = append(out, c.t)
	}
	slices.Sort(out)
	return out
}
