package train

import (
	"sync"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// In-process data parallelism (docs/performance.md, "Training workers"),
// the way Marian trains on CPU: each worker is a "device" that runs the
// forward and backward passes of its share of the batch on a graph of its
// own with its share of the kernel threads. Many small kernels scale badly
// when each is split over threads; whole shards on single-threaded graphs
// keep every core busy with no synchronisation inside the step.
//
// The weights and the optimiser state exist once: workers only read the
// weights, and each worker but the first adds its gradients to a private
// buffer (engine.GradSet) that Reduce sums into the parameters' own before
// the one optimiser step. As with the MPI ranks of distributed.go, the
// workers produce unnormalised sums (loss, NLL, target tokens, gradients)
// that are added before anything is divided by the token count, so an
// update does not depend on the number of workers beyond float summation
// order. A batch is split by sentences, and each shard keeps the batch's
// padded lengths, so that dropout can number its elements as the unsplit
// batch does (engine.Graph.SetShard): the masks, and so the fixed-seed
// losses, are the same for every number of workers.

// Workers runs the forward and backward passes of batches split over n
// goroutines.
type Workers struct {
	m      model.Model
	graphs []*engine.Graph
	// grads[i] collects worker i's gradients; grads[0] is nil: worker 0
	// adds into the parameters' own buffers
	grads   []*engine.GradSet
	threads int
	// pieces splits each worker's shard again, into pieces run one after
	// another (SetMicroBatches)
	pieces int
}

// NewWorkers prepares n workers (at least 1) for m sharing threads kernel
// threads (at least one each; the first threads%n workers get one more).
// Their graphs' dropout seed is seed.
func NewWorkers(m model.Model, n, threads int, seed uint64) *Workers {
	n = max(n, 1)
	w := &Workers{m: m, graphs: make([]*engine.Graph, n), grads: make([]*engine.GradSet, n), threads: max(threads, 1), pieces: 1}
	for i := range w.graphs {
		w.graphs[i] = engine.NewGraph(seed)
		w.graphs[i].SetThreads(engine.ThreadShare(threads, n, i))
		if i > 0 {
			w.grads[i] = m.Params().NewGradSet()
		}
	}
	return w
}

// SetMicroBatches makes each worker run its shard of a batch as p pieces
// of sentences, one after another on its one graph, adding their
// gradients (1: the whole shard at once). Since the dropout masks are
// numbered by sentence in the batch (SetShard), the update is the unsplit
// batch's but for float summation order, at about 1/p of its activation
// memory: the arena keeps the buffers of one piece, not of the batch.
// This is not --update-freq, which accumulates different batches.
func (w *Workers) SetMicroBatches(p int) { w.pieces = max(p, 1) }

// N is the number of workers.
func (w *Workers) N() int { return len(w.graphs) }

// Graph is worker 0's graph, whose dropout RNG state is the run's: a batch's
// masks start where it stands (Backward copies it to the other workers).
func (w *Workers) Graph() *engine.Graph { return w.graphs[0] }

// ZeroGrad clears the parameters' gradients and every worker's.
func (w *Workers) ZeroGrad() {
	w.m.Params().ZeroGrad()
	for _, s := range w.grads[1:] {
		s.Zero()
	}
}

// Shard returns worker i's sentences [lo, hi) of a batch of b sentences:
// contiguous runs of equal size (within one; the later shards are the
// smaller, and empty when b < n). The shards keep the batch's padded
// lengths, so a shard's work is proportional to its sentences.
func Shard(b, n, i int) (lo, hi int) {
	bound := func(i int) int { return (i*b + n - 1) / n }
	return bound(i), bound(i + 1)
}

// shardOf is sentences [lo, hi) of bt, sharing its arrays.
func shardOf(bt model.Batch, lo, hi int) model.Batch {
	return model.Batch{Src: bt.Src[lo*bt.S : hi*bt.S], TgtIn: bt.TgtIn[lo*bt.T : hi*bt.T],
		TgtOut: bt.TgtOut[lo*bt.T : hi*bt.T], B: hi - lo, S: bt.S, T: bt.T}
}

// Backward runs the forward and backward passes of bt, split over the
// workers, seeding each shard's loss gradient with scale, and adds the
// gradients into the workers' buffers (Reduce sums them). It returns the
// batch's summed loss and NLL (nats) and its target tokens. The dropout
// masks start at worker 0's RNG state.
func (w *Workers) Backward(bt model.Batch, smoothing, scale float32) (loss, nll float64, tokens int) {
	seed, counter := w.graphs[0].RNGState()
	n := len(w.graphs)
	type sums struct {
		loss, nll float64
		tokens    int
	}
	out := make([]sums, n)
	// piece runs sentences [lo, hi) of the batch on worker i's graph
	piece := func(i, lo, hi int) {
		g := w.graphs[i]
		g.Reset()
		g.SetRNGState(seed, counter)
		if hi-lo == bt.B {
			g.SetShard(0, 0) // unsplit: any dropout is fine
		} else {
			g.SetShard(lo, hi-lo)
		}
		g.SetGrads(w.grads[i])
		res := model.Loss(g, w.m, shardOf(bt, lo, hi), smoothing)
		g.BackwardScaled(res.Loss, scale)
		s := &out[i]
		s.loss, s.nll, s.tokens = s.loss+float64(res.Loss.Item()), s.nll+res.NLL, s.tokens+res.Tokens
		g.Reset()
	}
	work := func(i int) {
		lo, hi := Shard(bt.B, n, i)
		for j := range w.pieces {
			plo, phi := Shard(hi-lo, w.pieces, j)
			if plo < phi {
				piece(i, lo+plo, lo+phi)
			}
		}
	}
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			work(i)
		}(i)
	}
	work(0)
	wg.Wait()
	for _, s := range out {
		loss, nll, tokens = loss+s.loss, nll+s.nll, tokens+s.tokens
	}
	return loss, nll, tokens
}

// DropCaches lets the garbage collector have the buffers every worker's
// graph keeps between steps (the graphs are reset after each piece, so
// none is in use between updates); the next step allocates them again.
func (w *Workers) DropCaches() {
	for _, g := range w.graphs {
		g.ResetAndDrop()
	}
}

// Reduce adds the other workers' gradients into the parameters' own, in
// parallel over parameter ranges.
func (w *Workers) Reduce() {
	w.m.Params().AddGrads(w.grads[1:], w.threads)
}
