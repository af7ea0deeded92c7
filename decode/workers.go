package decode

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/strata-nmt/strata/engine"
)

// Inter-batch parallelism (Marian's --cpu-threads, CTranslate2's
// inter_threads): W searchers, each with its own graphs, arenas and decoder
// caches and a share of the kernel threads, take whole batches from one
// queue. The kernels of one beam step are small (160 rows × d 256), so
// splitting them over threads scales badly (1.56x on two cores), while two
// batches decoded side by side keep both cores busy with no
// synchronisation between them. The cost is memory: every searcher holds
// its own caches and arena.

// Pool is a set of searchers that decode batches in parallel. It is not
// safe for concurrent use (one Run at a time).
type Pool struct {
	searchers []*Searcher
	threads   int
}

// NewPool returns a pool of workers searchers: s and workers-1 more made by
// more (each with the options s has when Run starts), sharing threads
// kernel threads (0: GOMAXPROCS).
func NewPool(s *Searcher, workers, threads int, more func() (*Searcher, error)) (*Pool, error) {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	p := &Pool{searchers: []*Searcher{s}, threads: threads}
	for len(p.searchers) < max(workers, 1) {
		x, err := more()
		if err != nil {
			return nil, err
		}
		p.searchers = append(p.searchers, x)
	}
	return p, nil
}

// Workers is the number of searchers.
func (p *Pool) Workers() int { return len(p.searchers) }

// DefaultWorkers is the number of searchers strata's commands use for
// threads kernel threads when --decoders is 0: one per thread (each batch
// single-threaded), which decoded 1.5x faster than one searcher over both
// cores of the benchmark machine (docs/decoding.md). Pool.Run uses fewer
// when there are fewer batches, giving each more threads.
func DefaultWorkers(threads int) int {
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	return threads
}

// HeldBytes is the memory the searchers' arenas hold.
func (p *Pool) HeldBytes() int {
	n := 0
	for _, s := range p.searchers {
		n += s.HeldBytes()
	}
	return n
}

// Run decodes batches 0..n-1 (batch(i) gives the sources of batch i) with
// prefix and calls done(i, hyps) with each batch's hypotheses, on the
// goroutine that decoded it: calls for different batches may run at the
// same time. Batches are taken in order, so a queue sorted longest first
// ends with the short ones and the workers finish close together. With
// fewer batches than searchers only n searchers run, splitting the threads
// among them. The first error done returns stops the run (batches being
// decoded finish first) and is returned.
func (p *Pool) Run(n int, batch func(i int) [][]int32, prefix []int32, done func(i int, hyps [][]Hypothesis) error) error {
	active := min(len(p.searchers), n)
	if active == 0 {
		return nil
	}
	opt := p.searchers[0].Options()
	for k, s := range p.searchers[:active] {
		// thread shares differ by at most one
		s.SetThreads(engine.ThreadShare(p.threads, active, k))
		if k > 0 {
			if err := s.SetOptions(opt); err != nil {
				return err
			}
		}
	}
	if active == 1 {
		for i := 0; i < n; i++ {
			if err := done(i, p.searchers[0].Search(batch(i), prefix)); err != nil {
				return err
			}
		}
		return nil
	}
	var (
		next    atomic.Int64
		failed  atomic.Bool
		errOnce sync.Once
		first   error
		wg      sync.WaitGroup
	)
	// searcher k starts with batch k, so that which searcher decodes
	// which of the first batches (and so how large its buffers grow)
	// does not depend on goroutine scheduling; the rest go to whichever
	// is free
	next.Store(int64(active))
	for k, s := range p.searchers[:active] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; !failed.Load(); i = int(next.Add(1) - 1) {
				if i >= n {
					return
				}
				if err := done(i, s.Search(batch(i), prefix)); err != nil {
					errOnce.Do(func() { first = err })
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	return first
}
