// Package gemmfloor replays traced matrix products (engine.TraceGemms)
// alone on scratch operands: how fast the products of a workload run on
// this machine's BLAS, with nothing else of the workload around them. It
// is a diagnostic of a workload's decomposition, not a ceiling: the
// ceiling is the cores' arithmetic peak (internal/ceiling).
package gemmfloor

import (
	"sync"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/engine/blas"
)

// Flops is a call's floating-point operations, 2·m·n·k.
func Flops(c engine.GemmCall) float64 { return 2 * float64(c.M) * float64(c.N) * float64(c.K) }

// TotalFlops is the floating-point operations of all calls.
func TotalFlops(calls []engine.GemmCall) float64 {
	var f float64
	for _, c := range calls {
		f += Flops(c)
	}
	return f
}

// minSplitWork is the m·n·k below which a product runs whole, as the
// engine runs it.
const minSplitWork = 1 << 21

// Replay runs the products of calls again on scratch operands, decomposed
// as the engine runs them on threads threads: split products one after
// another, each in row blocks over the threads on a single-threaded BLAS;
// runs of consecutive small products as parallel jobs. The operands
// rotate through four scratch sets so that consecutive products do not
// find each other's data in cache.
func Replay(calls []engine.GemmCall, threads int) {
	threads = max(threads, 1)
	split := blas.SetThreads(1)
	sc := newScratch(calls)
	for i := 0; i < len(calls); {
		if calls[i].Split {
			replaySplit(calls[i], sc, i, threads, split)
			i++
			continue
		}
		j := i
		for j < len(calls) && !calls[j].Split {
			j++
		}
		inParallel(j-i, threads, func(lo, hi int) {
			for k := i + lo; k < i+hi; k++ {
				run(calls[k], sc, k, 0, calls[k].M)
			}
		})
		i = j
	}
}

// replaySplit runs one split product in row blocks of C.
func replaySplit(c engine.GemmCall, sc *scratch, i, threads int, split bool) {
	if !split || threads == 1 || c.M*c.N*c.K < minSplitWork || c.M < 2*threads {
		run(c, sc, i, 0, c.M)
		return
	}
	inParallel(c.M, threads, func(lo, hi int) { run(c, sc, i, lo, hi) })
}

// run computes rows [lo, hi) of c's product on scratch set i.
func run(c engine.GemmCall, sc *scratch, i, lo, hi int) {
	a, b, cc := sc.set(i)
	aOff := lo * c.LDA
	if c.TA {
		aOff = lo
	}
	blas.Sgemm(c.TA, c.TB, hi-lo, c.N, c.K, 1, a[aOff:], c.LDA, b, c.LDB, 0, cc[lo*c.LDC:], c.LDC)
}

// inParallel runs fn over [0, n) in up to threads contiguous blocks, one
// goroutine each.
func inParallel(n, threads int, fn func(lo, hi int)) {
	parts := min(threads, n)
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(p*n/parts, (p+1)*n/parts)
		}()
	}
	wg.Wait()
}

// scratch holds four sets of operands, each as large as the largest
// product's.
type scratch struct {
	a, b, c    []float32
	na, nb, nc int
}

const sets = 4

func newScratch(calls []engine.GemmCall) *scratch {
	s := &scratch{}
	for _, c := range calls {
		a, b, cc := operandSizes(c)
		s.na, s.nb, s.nc = max(s.na, a), max(s.nb, b), max(s.nc, cc)
	}
	s.a, s.b, s.c = make([]float32, sets*s.na), make([]float32, sets*s.nb), make([]float32, sets*s.nc)
	return s
}

func (s *scratch) set(i int) (a, b, c []float32) {
	k := i % sets
	return s.a[k*s.na : (k+1)*s.na], s.b[k*s.nb : (k+1)*s.nb], s.c[k*s.nc : (k+1)*s.nc]
}

// operandSizes is the floats each operand of c spans.
func operandSizes(c engine.GemmCall) (a, b, cc int) {
	span := func(rows, cols, ld int) int { return (rows-1)*ld + cols }
	if c.TA {
		a = span(c.K, c.M, c.LDA)
	} else {
		a = span(c.M, c.K, c.LDA)
	}
	if c.TB {
		b = span(c.N, c.K, c.LDB)
	} else {
		b = span(c.K, c.N, c.LDB)
	}
	return a, b, span(c.M, c.N, c.LDC)
}
