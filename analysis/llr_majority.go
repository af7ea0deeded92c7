package analysis

import "sort"

// The majority-class baseline of an LLR probe is the accuracy of the best
// constant classifier: the share of the most frequent label among the
// split's test labels. A probe's split figure averages directions with
// equal weight, and within a direction every token has the same source
// label and the same target label, so the baseline is computed with the
// same averaging: the share of the split's directions (with tokens at the
// layer) whose label is the most frequent one. For the recipe's
// English-centric supervised split (en→X and X→en for five X) that is 50%
// (English), not 1/6; for its 20 zero-shot directions 20%. The
// token-weighted share (every token counted once) is kept beside it.

// setMajority fills the split's majority-class baselines; ne is the number
// of encoder layers (the token counts of the others are decoder tokens).
func (s *LLRSplitResult) setMajority(layers, ne int) {
	src := func(d Direction) string { return d.Src }
	tgt := func(d Direction) string { return d.Tgt }
	s.SourceMajority, s.SourceMajorityTokens = make([]Ratio, layers), make([]Ratio, layers)
	s.TargetMajority, s.TargetMajorityTokens = make([]Ratio, layers), make([]Ratio, layers)
	for l := 0; l < layers; l++ {
		s.SourceMajority[l], s.SourceMajorityTokens[l] = majorityShare(s.Directions, l < ne, src)
		s.TargetMajority[l], s.TargetMajorityTokens[l] = majorityShare(s.Directions, l < ne, tgt)
	}
	s.SourceMajorityLang = majorityLabel(s.Directions, src)
	s.TargetMajorityLang = majorityLabel(s.Directions, tgt)
}

// majorityShare returns the most frequent label's share of the directions
// that have tokens on this side (encoder or decoder), and the most frequent
// label's share of their tokens.
func majorityShare(ds []LLRDirection, encoder bool, label func(Direction) string) (byDirection, byToken Ratio) {
	dirs, toks := map[string]int{}, map[string]int{}
	nd, nt := 0, 0
	for _, d := range ds {
		n := d.DecTokens
		if encoder {
			n = d.EncTokens
		}
		if n == 0 {
			continue
		}
		dirs[label(d.Direction)]++
		toks[label(d.Direction)] += n
		nd++
		nt += n
	}
	return ratio(maxCount(dirs), nd), ratio(maxCount(toks), nt)
}

func maxCount(m map[string]int) int {
	best := 0
	for _, c := range m {
		best = max(best, c)
	}
	return best
}

// majorityLabel is the most frequent label over all the split's directions
// (ties: the first in alphabetical order).
func majorityLabel(ds []LLRDirection, label func(Direction) string) string {
	counts := map[string]int{}
	for _, d := range ds {
		counts[label(d.Direction)]++
	}
	keys := sortedKeys(counts)
	sort.SliceStable(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	if len(keys) == 0 {
		return ""
	}
	return keys[0]
}
