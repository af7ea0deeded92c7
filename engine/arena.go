package engine

import "math/bits"

// arena recycles float32 buffers between training steps. Buffers are kept in
// size classes with 1/8-octave granularity (at most 12.5% waste), so batches
// of varying shape still reuse memory instead of growing the heap.
type arena struct {
	free  map[int][][]float32
	inUse [][]float32
	// bytes currently held by the arena, in use or free
	held int
}

func newArena() *arena { return &arena{free: map[int][][]float32{}} }

func sizeClass(n int) int {
	if n <= 64 {
		return 64
	}
	// round n up to a multiple of 2^(floor(log2 n)-3)
	shift := bits.Len(uint(n)) - 4
	step := 1 << shift
	return (n + step - 1) &^ (step - 1)
}

// get returns a buffer of length n with undefined contents.
func (a *arena) get(n int) []float32 {
	c := sizeClass(n)
	list := a.free[c]
	var buf []float32
	if k := len(list); k > 0 {
		buf = list[k-1]
		a.free[c] = list[:k-1]
	} else {
		buf = make([]float32, c)
		a.held += 4 * c
	}
	buf = buf[:n]
	a.inUse = append(a.inUse, buf)
	return buf
}

// zeros returns a zeroed buffer of length n.
func (a *arena) zeros(n int) []float32 {
	b := a.get(n)
	clear(b)
	return b
}

// release returns every buffer handed out since the last release.
func (a *arena) release() {
	for i, b := range a.inUse {
		c := cap(b)
		a.free[c] = append(a.free[c], b[:c])
		a.inUse[i] = nil
	}
	a.inUse = a.inUse[:0]
}

// tensorPool recycles Tensor headers so ops allocate no small objects in
// steady state.
type tensorPool struct {
	chunks [][]Tensor
	next   int
}

// get hands out a zero Tensor header; headers are reused after reset.
func (p *tensorPool) get() *Tensor {
	const chunk = 256
	ci, i := p.next/chunk, p.next%chunk
	if ci == len(p.chunks) {
		p.chunks = append(p.chunks, make([]Tensor, chunk))
	}
	p.next++
	t := &p.chunks[ci][i]
	*t = Tensor{}
	return t
}

func (p *tensorPool) reset() { p.next = 0 }
