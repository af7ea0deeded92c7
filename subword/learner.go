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
	l := &learner{counts: make(map[uint64]int64), where: make(map[uint64][]int32), maxLen: maxLen,
		touchedSet: make(map[uint64]struct{})}
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
	keys := make([]string, 0, len(wc.m))
	for w := range wc.m {
		keys = append(keys, w)
	}
	slices.SortFunc(keys, func(x, y string) int {
		if c := cmp.Compare(wc.m[y], wc.m[x]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	l.words = make([][]int32, len(keys))
	l.freq = make([]int64, len(keys))
	l.visited = make([]int32, len(keys))
	for wi, w := range keys {
		syms := make([]int32, 1, 1+utf8.RuneCountInString(w))
		syms[0] = marker
		for _, r := range w {
			id, ok := charID[r]
			if !ok || r == markerRune {
				id = noSymbol
			}
			syms = append(syms, id)
		}
		n := wc.m[w]
		l.words[wi], l.freq[wi] = syms, n
		for i := 0; i+1 < len(syms); i++ {
			l.add(syms[i], syms[i+1], n, int32(wi))
		}
	}
	l.heap = make(pairHeap, 0, len(l.counts))
	for p, n := range l.counts {
		l.heap = append(l.heap, pairCount{n, p})
	}
	l.heap.init()
	return l
}

// countable says whether the pair (a, b) may become a piece.
func (l *learner) countable(a, b int32) bool {
	return a >= 0 && b >= 0 && l.runes[a]+l.runes[b] <= l.maxLen
}

// add counts n more occurrences of (a, b), in word w.
func (l *learner) add(a, b int32, n int64, w int32) {
	if !l.countable(a, b) {
		return
	}
	p := pairKey(a, b)
	l.counts[p] += n
	ws := l.where[p]
	if len(ws) == 0 || ws[len(ws)-1] != w {
		l.where[p] = append(ws, w)
	}
}

// sub removes n occurrences of (a, b).
func (l *learner) sub(a, b int32, n int64) {
	if !l.countable(a, b) {
		return
	}
	p := pairKey(a, b)
	if c := l.counts[p] - n; c > 0 {
		l.counts[p] = c
	} else {
		delete(l.counts, p)
	}
}

// best pops the most frequent pair, skipping stale heap entries.
func (l *learner) best() (uint64, int64, bool) {
	for len(l.heap) > 0 {
		top := l.heap.pop()
		cur := l.counts[top.pair]
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
	clear(l.touchedSet)
	ws := l.where[pair]
	delete(l.where, pair)
	delete(l.counts, pair)
	for _, w := range ws {
		if l.visited[w] == l.stamp {
			continue
		}
		l.visited[w] = l.stamp
		l.mergeWord(w, a, b, c)
	}
	for _, p := range l.touched {
		if n := l.counts[p]; n > 0 {
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
	if !l.countable(a, b) {
		return
	}
	l.add(a, b, n, w)
	p := pairKey(a, b)
	if _, ok := l.touchedSet[p]; !ok {
		l.touchedSet[p] = struct{}{}
		l.touched = append(l.touched, p)
	}
}
