package engine

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
	g.parallel(n, 4, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if keep(key, i, threshold) {
				y.Data[i] = x.Data[i] * scale
			} else {
				y.Data[i] = 0
			}
		}
	})
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		dx := g.grad(x)
		g.parallel(n, 4, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				if keep(key, i, threshold) {
					dx[i] += y.Grad[i] * scale
				}
			}
		})
	})
	return y
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
