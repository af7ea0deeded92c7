package subword

// pairCount is a heap entry: a pair and its count when pushed.
type pairCount struct {
	count int64
	pair  uint64
}

// pairHeap is a max-heap on count, ties to the smaller pair key. It is
// written out rather than using container/heap to avoid interface calls in
// the hot loop of learning.
type pairHeap []pairCount

func (h pairHeap) less(i, j int) bool {
	if h[i].count != h[j].count {
		return h[i].count > h[j].count
	}
	return h[i].pair < h[j].pair
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(x pairCount) {
	*h = append(*h, x)
	h.up(len(*h) - 1)
}

func (h *pairHeap) pop() pairCount {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	if last > 0 {
		h.down(0)
	}
	return top
}

func (h pairHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(i, p) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (h pairHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
