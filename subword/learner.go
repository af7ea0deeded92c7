package subword

import (
	"cmp"
	"slices"
	"unicode/utf8"
)

// noSymbol stands for a character outside the alphabet while learning: no
// pair containing it is counted.
const noSymbol = -1

func newLearner(wc *WordCounts, alphabet []string, maxLen int32) *learner {
	l := &learner{index: make(map[uint64]int32), maxLen: maxLen}
	l.runes = make([]int32, NumBytePieces, NumBytePieces+len(alphabet))
	charID := make(map[rune]int32, len(alphabet))
	for _, c := range alphabet {
		r, _ := utf8.DecodeRuneInString(c)
		charID[r] = int32(len(l.runes))
		l.runes = append(l.runes, 1)
	}
	marker := charID[markerRune]

	// Words in a fixed order (frequency, then text) make learning
	// deterministic whatever the map order.
	type wordCount struct {
		w string
		n int64
	}
	keys := make([]wordCount, 0, len(wc.m))
	for w, i := range wc.m {
		keys = append(keys, wordCount{w, wc.n[i]})
	}
	slices.SortFunc(keys, func(x, y wordCount) int {
		if c := cmp.Compare(y.n, x.n); c != 0 {
			return c
		}
		return cmp.Compare(x.w, y.w)
	})
	l.words = make([][]int32, len(keys))
	l.freq = make([]int64, len(keys))
	l.visited = make([]int32, len(keys))
	for wi, kw := range keys {
		w := kw.w
		syms := make([]int32, 1, 1+utf8.RuneCountInString(w))
		syms[0] = marker
		for k := 0; k < len(w); {
			r, size := utf8.DecodeRuneInString(w[k:])
			id, ok := charID[r]
			if !ok || r == markerRune || (r == utf8.RuneError && size == 1) {
				id = noSymbol
			}
			syms = append(syms, id)
			k += size
		}
		n := kw.n
		l.words[wi], l.freq[wi] = syms, n
		for i := 0; i+1 < len(syms); i++ {
			l.add(syms[i], syms[i+1], n, int32(wi))
		}
	}
	l.heap = make(pairHeap, 0, len(l.index))
	for p, i := range l.index {
		l.heap = append(l.heap, pairCount{l.pairs[i].count, p})
	}
	l.heap.init()
	return l
}

// countable says whether the pair (a, b) may become a piece.
func (l *learner) countable(a, b int32) bool {
	return a >= 0 && b >= 0 && l.runes[a]+l.runes[b] <= l.maxLen
}

// add counts n more occurrences of (a, b), in word w, and returns its
// state (nil if the pair is not countable).
func (l *learner) add(a, b int32, n int64, w int32) *pairState {
	if !l.countable(a, b) {
		return nil
	}
	p := pairKey(a, b)
	i, ok := l.index[p]
	if !ok {
		i = int32(len(l.pairs))
		l.index[p] = i
		l.pairs = append(l.pairs, pairState{})
	}
	ps := &l.pairs[i]
	ps.count += n
	if len(ps.words) == 0 || ps.words[len(ps.words)-1] != w {
		ps.words = append(ps.words, w)
	}
	return ps
}

// count is the current count of a pair.
func (l *learner) count(p uint64) int64 {
	if i, ok := l.index[p]; ok {
		return l.pairs[i].count
	}
	return 0
}

// sub removes n occurrences of (a, b).
func (l *learner) sub(a, b int32, n int64) {
	if !l.countable(a, b) {
		return
	}
	if i, ok := l.index[pairKey(a, b)]; ok {
		l.pairs[i].count -= n
	}
}

// best pops the most frequent pair, skipping stale heap entries.
func (l *learner) best() (uint64, int64, bool) {
	for len(l.heap) > 0 {
		top := l.heap.pop()
		cur := l.count(top.pair)
		if cur == top.count {
			return top.pair, cur, true
		}
		if cur > 0 { // the count fell since this entry was pushed
			l.heap.push(pairCount{cur, top.pair})
		}
	}
	return 0, 0, false
}

// merge replaces every (a, b) by c in the words that contain it and updates
// the counts of the neighbouring pairs.
func (l *learner) merge(pair uint64, a, b, c int32) {
	l.runes = append(l.runes, l.runes[a]+l.runes[b])
	l.stamp++
	l.touched = l.touched[:0]
	ps := &l.pairs[l.index[pair]]
	ws := ps.words
	ps.count, ps.words = 0, nil
	for _, w := range ws {
		if l.visited[w] == l.stamp {
			continue
		}
		l.visited[w] = l.stamp
		l.mergeWord(w, a, b, c)
	}
	for _, p := range l.touched {
		if n := l.count(p); n > 0 {
			l.heap.push(pairCount{n, p})
		}
	}
}

// mergeWord merges (a, b) into c in one word, left to right. out is the
// merged prefix written in place; prev is its last symbol, so consecutive
// merges ("a b a b" -> "c c") update the right pairs.
func (l *learner) mergeWord(w int32, a, b, c int32) {
	syms, n := l.words[w], l.freq[w]
	merged := pairKey(a, b)
	out := 0
	for r := 0; r < len(syms); {
		if r+1 < len(syms) && syms[r] == a && syms[r+1] == b {
			if out > 0 {
				prev := syms[out-1]
				if pairKey(prev, a) != merged {
					l.sub(prev, a, n)
				}
				l.addTouched(prev, c, n, w)
			}
			if r+2 < len(syms) {
				next := syms[r+2]
				if pairKey(b, next) != merged {
					l.sub(b, next, n)
				}
				l.addTouched(c, next, n, w)
			}
			syms[out] = c
			r += 2
		} else {
			syms[out] = syms[r]
			r++
		}
		out++
	}
	l.words[w] = syms[:out]
}

func (l *learner) addTouched(a, b int32, n int64, w int32) {
	ps := l.add(a, b, n, w)
	if ps != nil && ps.touched != l.stamp {
		ps.touched = l.stamp
		l.touched = append(l.touched, pairKey(a, b))
	}
}
