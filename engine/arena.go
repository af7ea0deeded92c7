package engine

import (
	"math/bits"
	"unsafe"
)

// arena recycles float32 buffers between training steps. Buffers are kept in
// size classes with 1/8-octave granularity (at most 12.5% waste), so batches
// of varying shape still reuse memory instead of growing the heap.
//
// Buffers normally come back all at once (release, at Graph.Reset); recycle
// returns one early, which backward uses for gradients of intermediates as
// soon as they are consumed, so they are not all alive at the end of a step.
//
// Batches of varying shape ask for different size classes (attention
// probabilities grow with the square of the length), and a free list per
// class kept every class ever used: a d=128 model trained on token batches
// of 5 to 100 tokens per sentence held 6.7 GB. So a request may take a free
// buffer up to twice its size, and when the arena holds more than twice
// the most in use at once recently, release drops the free buffers of
// classes the last step did not use, and of the classes it used keeps only
// as many as were recently in use at once (the garbage collector reclaims
// the rest).
// "Recently" is this window of arenaWindow releases and the one before: a
// peak that never decayed let one large batch (a server's beam-16 request
// of long lines) pin twice its memory for the life of the process.
type arena struct {
	free  map[int][][]float32
	inUse [][]float32
	// where each handed-out buffer sits in inUse, by its first element
	index map[*float32]int
	// bytes currently held by the arena, in use or free
	held int
	// releases so far, and the release count when each class was last used
	step    int
	lastUse map[int]int
	// bytes handed out and not yet returned; the most in use at once in
	// the previous window of releases and this one, and in this one
	inUseBytes, peak, windowPeak int
	// per class: buffers in use now, and the most in use at once in this
	// window and in the previous one
	classInUse, classPeak, classPrev map[int]int
}

// arenaWindow is the number of releases over which the arena's peak use
// is remembered (a decoding step is one release; a training step one).
const arenaWindow = 64

func newArena() *arena {
	return &arena{free: map[int][][]float32{}, index: map[*float32]int{}, lastUse: map[int]int{},
		classInUse: map[int]int{}, classPeak: map[int]int{}, classPrev: map[int]int{}}
}

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
	buf := a.takeFree(c)
	if buf == nil {
		buf = make([]float32, c)
		a.held += 4 * c
	}
	c = cap(buf)
	a.lastUse[c] = a.step
	a.classInUse[c]++
	a.classPeak[c] = max(a.classPeak[c], a.classInUse[c])
	a.inUseBytes += 4 * c
	a.peak = max(a.peak, a.inUseBytes)
	a.windowPeak = max(a.windowPeak, a.inUseBytes)
	a.index[&buf[0]] = len(a.inUse)
	buf = buf[:n]
	a.inUse = append(a.inUse, buf)
	return buf
}

// takeFree pops a free buffer of class c or of one of the next classes up
// to 2c, or returns nil.
func (a *arena) takeFree(c int) []float32 {
	for k := c; k <= 2*c; k = sizeClass(k + 1) {
		if list := a.free[k]; len(list) > 0 {
			buf := list[len(list)-1]
			a.free[k] = list[:len(list)-1]
			return buf[:cap(buf)]
		}
	}
	return nil
}

// recycle returns one buffer obtained from get before the next release; the
// caller must hold no other reference to it. Buffers not from this arena
// are ignored.
func (a *arena) recycle(buf []float32) {
	if cap(buf) == 0 {
		return
	}
	buf = buf[:cap(buf)]
	i, ok := a.index[&buf[0]]
	if !ok {
		return
	}
	delete(a.index, &buf[0])
	a.inUse[i] = nil
	a.inUseBytes -= 4 * len(buf)
	a.classInUse[len(buf)]--
	a.free[len(buf)] = append(a.free[len(buf)], buf)
}

// zeros returns a zeroed buffer of length n.
func (a *arena) zeros(n int) []float32 {
	b := a.get(n)
	clear(b)
	return b
}

// release returns every buffer handed out since the last release.
func (a *arena) release() {
	clear(a.index)
	for i, b := range a.inUse {
		if b == nil { // recycled already
			continue
		}
		c := cap(b)
		a.free[c] = append(a.free[c], b[:c])
		a.inUse[i] = nil
	}
	a.inUse = a.inUse[:0]
	a.inUseBytes = 0
	clear(a.classInUse)
	if a.held > 2*a.peak {
		a.trim()
	}
	a.step++
	if a.step%arenaWindow == 0 {
		a.peak, a.windowPeak = a.windowPeak, 0
		a.classPrev, a.classPeak = a.classPeak, a.classPrev
		clear(a.classPeak)
	}
}

// trim drops the free buffers of classes the last step did not use and,
// of the others, those beyond the most recently in use at once.
func (a *arena) trim() {
	for c, list := range a.free {
		keep := max(a.classPeak[c], a.classPrev[c])
		if a.lastUse[c] < a.step {
			keep = 0
		}
		if len(list) <= keep {
			continue
		}
		a.held -= 4 * c * (len(list) - keep)
		clear(list[keep:])
		a.free[c] = list[:keep]
		if keep == 0 {
			delete(a.free, c)
			delete(a.lastUse, c)
		}
	}
}

// dropFree drops every free buffer (the garbage collector reclaims them)
// and forgets the peaks of use, so that the next steps' use sets them
// again; it returns the bytes dropped.
func (a *arena) dropFree() int {
	n := 0
	for c, list := range a.free {
		n += 4 * c * len(list)
		clear(list)
	}
	clear(a.free)
	clear(a.lastUse)
	a.held -= n
	a.peak, a.windowPeak = a.inUseBytes, a.inUseBytes
	clear(a.classPeak)
	clear(a.classPrev)
	return n
}

// mark is the position of the next buffer handed out, for releaseSince.
func (a *arena) mark() int { return len(a.inUse) }

// releaseSince returns every buffer handed out since mark except those
// holding any of keep (a kept tensor may be a view into its buffer).
func (a *arena) releaseSince(mark int, keep [][]float32) {
	for i := mark; i < len(a.inUse); i++ {
		b := a.inUse[i]
		if b != nil && !holdsAny(b[:cap(b)], keep) {
			a.recycle(b)
		}
	}
}

// holdsAny reports whether the first element of any of keep lies in buf.
func holdsAny(buf []float32, keep [][]float32) bool {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	hi := lo + 4*uintptr(len(buf))
	for _, k := range keep {
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(k))); len(k) > 0 && p >= lo && p < hi {
			return true
		}
	}
	return false
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
