package engine

import (
	"math"
	"unsafe"
)

// Dropout zeroes each element with probability p and scales the rest by
// 1/(1-p) (inverted dropout). It is the identity when the graph's DropoutOn
// flag is off or p == 0.
//
// The mask comes from a counter-based generator: element i of the k-th
// dropout op in a graph's life is kept iff hash(seed, k, i) ≥ p. Masks are
// therefore independent of thread count and of how rows are chunked, and a
// run restored with the same (seed, counter) reproduces them exactly.
func (g *Graph) Dropout(x *Tensor, p float32) *Tensor {
	if !g.DropoutOn || p <= 0 {
		return x
	}
	key := g.nextDropKey()
	scale := 1 / (1 - p)
	threshold := uint32(float64(p) * (1 << 32))
	y := g.newTensor([]*Tensor{x}, x.Shape()...)
	n := len(x.Data)
	// The forward pass stores the mask as bits, 32 elements to a word, so
	// backward reads it instead of hashing every element again. Chunks are
	// whole words, so no two goroutines write the same word.
	words := (n + 31) / 32
	mask := g.bitmask(words)
	g.parallel(words, 32*4, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			base := w * 32
			xs, ys := x.Data[base:min(base+32, n)], y.Data[base:min(base+32, n)]
			var bits uint32
			for j, v := range xs {
				var k uint32
				if keep(key, base+j, threshold) { // compiled to a flag, not a branch
					k = 1
				}
				bits |= k << j
				// -k is all ones for a kept element: dropped ones become
				// +0 whatever v is, as a select would give
				ys[j] = math.Float32frombits(math.Float32bits(v*scale) & -k)
			}
			mask[w] = bits
		}
	})
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		dx := g.grad(x)
		g.parallel(words, 32*2, func(_, lo, hi int) {
			for w := lo; w < hi; w++ {
				base := w * 32
				dys, dxs := y.Grad[base:min(base+32, n)], dx[base:min(base+32, n)]
				bits := mask[w]
				for j, d := range dys {
					dxs[j] += math.Float32frombits(math.Float32bits(d*scale) & -(bits >> j & 1))
				}
			}
		})
	})
	return y
}

// bitmask returns an arena buffer of n 32-bit words (undefined contents),
// valid until Reset.
func (g *Graph) bitmask(n int) []uint32 {
	if n == 0 {
		return nil
	}
	buf := g.arena.get(n)
	return unsafe.Slice((*uint32)(unsafe.Pointer(&buf[0])), n)
}

func (g *Graph) nextDropKey() uint64 {
	g.counter++
	return splitmix(g.seed ^ splitmix(g.counter))
}

func keep(key uint64, i int, threshold uint32) bool {
	return uint32(splitmix(key+uint64(i))>>32) >= threshold
}

// splitmix is the SplitMix64 finaliser: a cheap, well-mixed 64-bit hash.
func splitmix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
