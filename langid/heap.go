package langid

// scored is fastText's prediction pair: a log-probability and a label (or,
// in the hierarchical softmax, leaf node) index.
type scored struct {
	score float32
	idx   int32
}

// The functions below reproduce libstdc++'s std::push_heap, std::pop_heap
// and std::sort_heap with fastText's comparator (l.first > r.first, i.e. a
// min-heap on score). container/heap would give the same top-k set but not
// the same order among equal scores, and equal scores are common: every
// label whose probability underflows gets log(1e-5). Matching the CLI byte
// for byte needs the same sift steps.

// before is fastText's comparePairs.
func before(a, b scored) bool { return a.score > b.score }

// siftUp is libstdc++'s __push_heap.
func siftUp(h []scored, hole, top int, v scored) {
	parent := (hole - 1) / 2
	for hole > top && before(h[parent], v) {
		h[hole] = h[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	h[hole] = v
}

// pushHeap is std::push_heap over h, whose last element is the new one.
func pushHeap(h []scored) {
	n := len(h)
	siftUp(h, n-1, 0, h[n-1])
}

// adjustHeap is libstdc++'s __adjust_heap.
func adjustHeap(h []scored, hole, n int, v scored) {
	top := hole
	child := hole
	for child < (n-1)/2 {
		child = 2 * (child + 1)
		if before(h[child], h[child-1]) {
			child--
		}
		h[hole] = h[child]
		hole = child
	}
	if n&1 == 0 && child == (n-2)/2 {
		child = 2 * (child + 1)
		h[hole] = h[child-1]
		hole = child - 1
	}
	siftUp(h, hole, top, v)
}

// popHeapInto is libstdc++'s __pop_heap(first, last, result): the top moves
// to position res and the heap h[:n] is restored around the old h[res].
func popHeapInto(h []scored, n, res int) {
	v := h[res]
	h[res] = h[0]
	adjustHeap(h, 0, n, v)
}

// popHeap is std::pop_heap: the top moves to the last position.
func popHeap(h []scored) {
	if n := len(h); n > 1 {
		popHeapInto(h, n-1, n-1)
	}
}

// sortHeap is std::sort_heap: the result is in descending score order.
func sortHeap(h []scored) {
	for n := len(h); n > 1; {
		n--
		popHeapInto(h, n, n)
	}
}

// pushTopK adds v to the k-best heap h, dropping the worst entry when the
// heap grows past k (the push/pop pair in Loss::findKBest and
// HierarchicalSoftmaxLoss::dfs).
func pushTopK(h []scored, v scored, k int) []scored {
	h = append(h, v)
	pushHeap(h)
	if len(h) > k {
		popHeap(h)
		h = h[:len(h)-1]
	}
	return h
}
