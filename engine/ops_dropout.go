package engine

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// Dropout zeroes each element with probability p and scales the rest by
// 1/(1-p) (inverted dropout). It is the identity when the graph's DropoutOn
// flag is off or p == 0.
//
// The mask comes from a counter-based generator: element i of the k-th
// dropout op in a graph's life is kept iff hash(seed, k, i) ≥ p. Masks are
// therefore independent of thread count and of how rows are chunked, and a
// run restored with the same (seed, counter) reproduces them exactly.
//
// x must be batch-major (one equal block of elements per sentence, as every
// activation is) when the graph computes a shard of a batch (SetShard):
// the shard then draws the elements of the whole batch's mask that fall in
// its sentences. Dropout on anything else, such as weights, is
// WeightDropout.
func (g *Graph) Dropout(x *Tensor, p float32) *Tensor {
	return g.dropout(x, p, true)
}

// WeightDropout is Dropout of a tensor that is not per sentence (a weight
// matrix): every shard of a batch draws the same, whole mask.
func (g *Graph) WeightDropout(x *Tensor, p float32) *Tensor {
	return g.dropout(x, p, false)
}

func (g *Graph) dropout(x *Tensor, p float32, perSentence bool) *Tensor {
	if !g.DropoutOn || p <= 0 {
		return x
	}
	key := g.nextDropKey(len(x.Data), perSentence)
	scale := 1 / (1 - p)
	threshold := uint32(float64(p) * (1 << 32))
	y := g.newTensor([]*Tensor{x}, x.Shape()...)
	mask := g.bitmask((len(x.Data) + 31) / 32)
	g.be.Dropout(x.Data, y.Data, mask, key, threshold, scale)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		g.be.DropoutBackward(y.Grad, g.grad(x), mask, scale)
	})
	return y
}

// Dropout on the CPU. The forward pass stores the mask as bits, 32
// elements to a word, so backward reads it instead of hashing every
// element again. Chunks are whole words, so no two goroutines write the
// same word.
func (c cpuBackend) Dropout(x, y []float32, mask []uint32, key uint64, threshold uint32, scale float32) {
	n, words := len(x), len(mask)
	c.g.parallel(words, 32*4, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			base := w * 32
			xs, ys := x[base:min(base+32, n)], y[base:min(base+32, n)]
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
}

func (c cpuBackend) DropoutBackward(dy, dx []float32, mask []uint32, scale float32) {
	n, words := len(dy), len(mask)
	c.g.parallel(words, 32*2, func(_, lo, hi int) {
		for w := lo; w < hi; w++ {
			base := w * 32
			dys, dxs := dy[base:min(base+32, n)], dx[base:min(base+32, n)]
			bits := mask[w]
			for j, d := range dys {
				dxs[j] += kernels.MaskedScale(d, scale, bits, j)
			}
		}
	})
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

// SetShard declares that the graph computes sentences [first, first+count)
// of a batch, padded to the batch's lengths (count 0: the whole batch, the
// default). Dropout then numbers the elements of a batch-major tensor as
// the whole batch's tensor would, so that splitting a batch over graphs
// (train's workers) draws exactly the masks of the unsplit batch.
func (g *Graph) SetShard(first, count int) { g.shardFirst, g.shardCount = first, count }

// nextDropKey returns the key of the next dropout op over n elements. keep
// hashes key+i, so a shard's key is moved by the number of elements of the
// sentences before it.
func (g *Graph) nextDropKey(n int, perSentence bool) uint64 {
	g.counter++
	key := splitmix(g.seed ^ splitmix(g.counter))
	if perSentence && g.shardCount > 0 {
		if n%g.shardCount != 0 {
			panic(fmt.Sprintf("engine: dropout over %d elements in a shard of %d sentences: not batch-major (weights take WeightDropout)", n, g.shardCount))
		}
		key += uint64(g.shardFirst * (n / g.shardCount))
	}
	return key
}

// keep is the dropout generator (kernels.Keep: SplitMix64 of key+i
// against threshold).
func keep(key uint64, i int, threshold uint32) bool { return kernels.Keep(key, i, threshold) }

// splitmix is the SplitMix64 finaliser: a cheap, well-mixed 64-bit hash.
func splitmix(z uint64) uint64 { return kernels.SplitMix(z) }
