package engine

import (
	"sync"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// minWork is roughly the number of float operations below which splitting a
// kernel over goroutines costs more than it saves.
const minWork = 1 << 15

// chunks returns how many pieces n rows of rowWork operations are split into:
// a function only of (n, rowWork, threads), so results are deterministic for a
// fixed thread count.
func (g *Graph) chunks(n, rowWork int) int {
	c := g.threads
	if c > n {
		c = n
	}
	if n*rowWork < minWork {
		c = 1
	}
	if c < 1 {
		c = 1
	}
	return c
}

// parallel runs fn over [0,n) in contiguous chunks, one goroutine each.
// fn receives the chunk index too, for per-chunk partial sums.
func (g *Graph) parallel(n, rowWork int, fn func(chunk, lo, hi int)) {
	c := g.chunks(n, rowWork)
	if c == 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	wg.Add(c - 1)
	for i := 1; i < c; i++ {
		lo, hi := i*n/c, (i+1)*n/c
		go func(i, lo, hi int) {
			fn(i, lo, hi)
			wg.Done()
		}(i, lo, hi)
	}
	fn(0, 0, n/c)
	wg.Wait()
}

// sumColumns adds the column sums of the n×d matrix src (rows [lo,hi) at a
// time, in parallel chunks) into dst, with a fixed summation order.
func (g *Graph) sumColumns(dst []float32, n, d int, rowFn func(row int, acc []float32)) {
	g.sumColumnsRows(dst, n, d, func(lo, hi int, acc []float32) {
		for r := lo; r < hi; r++ {
			rowFn(r, acc)
		}
	})
}

// sumColumnsRows is sumColumns with rowsFn adding rows [lo, hi) to acc in
// order at once (addRows: a strip of columns held in registers over all
// the rows, where a call per row reloaded it).
func (g *Graph) sumColumnsRows(dst []float32, n, d int, rowsFn func(lo, hi int, acc []float32)) {
	c := g.chunks(n, d)
	if c == 1 {
		rowsFn(0, n, dst)
		return
	}
	partial := g.arena.zeros(c * d)
	g.parallel(n, d, func(ch, lo, hi int) {
		rowsFn(lo, hi, partial[ch*d:(ch+1)*d])
	})
	for ch := 0; ch < c; ch++ {
		axpy(dst, partial[ch*d:(ch+1)*d], 1)
	}
}

// addRows adds rows [0, rows) of src (ld floats apart) to acc[:len(acc)]
// in row order: per column the additions axpy(acc, row, 1) would make one
// row at a time (1·x is x), so the same bits (kernels.AddRows).
func addRows(acc, src []float32, rows, ld int) { kernels.AddRows(acc, src, rows, ld) }

// sumColumns2 is sumColumns for two sums over the same rows in one pass
// (either dst may be nil: its accumulator is then nil too); rowFn also gets
// the chunk index, for per-chunk scratch. Each sum is formed exactly as
// sumColumns forms it.
func (g *Graph) sumColumns2(dst1, dst2 []float32, n, d int, rowFn func(chunk, row int, acc1, acc2 []float32)) {
	c := g.chunks(n, d)
	if c == 1 {
		for r := 0; r < n; r++ {
			rowFn(0, r, dst1, dst2)
		}
		return
	}
	part := func(dst []float32) []float32 {
		if dst == nil {
			return nil
		}
		return g.arena.zeros(c * d)
	}
	p1, p2 := part(dst1), part(dst2)
	slice := func(p []float32, ch int) []float32 {
		if p == nil {
			return nil
		}
		return p[ch*d : (ch+1)*d]
	}
	g.parallel(n, d, func(ch, lo, hi int) {
		a1, a2 := slice(p1, ch), slice(p2, ch)
		for r := lo; r < hi; r++ {
			rowFn(ch, r, a1, a2)
		}
	})
	for ch := 0; ch < c; ch++ {
		if p1 != nil {
			axpy(dst1, p1[ch*d:(ch+1)*d], 1)
		}
		if p2 != nil {
			axpy(dst2, p2[ch*d:(ch+1)*d], 1)
		}
	}
}

// ThreadShare is worker k's share when threads kernel threads are split
// among n workers that each run their own graph (training's batch shards,
// decoding's parallel decoders): shares differ by at most one, the first
// threads%n workers get the larger, and none gets fewer than one.
func ThreadShare(threads, n, k int) int {
	share := threads / max(n, 1)
	if k < threads%max(n, 1) {
		share++
	}
	return max(share, 1)
}
