package engine

import (
	"fmt"
	"runtime"
	"time"
)

// Graph is one forward (and optionally backward) computation. It owns the
// tape and the arena that intermediates live in; create one per worker and
// reuse it across steps with Reset.
type Graph struct {
	record bool
	// DropoutOn enables dropout ops (training mode); off for inference and for
	// gradient checks.
	DropoutOn bool
	tape      []func()
	tapeOut   []*Tensor // the output whose gradient each tape entry consumes
	arena     *arena
	// be stores the tensors and runs the arithmetic (backend.go)
	be      Backend
	headers tensorPool
	// dropout RNG: seed plus a counter advanced by every dropout op, so a
	// step's masks depend only on (seed, step, op order).
	seed    uint64
	counter uint64
	threads int
	// compute: the format of inference products and of the decoder
	// caches started on the graph (compute.go)
	compute ComputeType
	// outRows restricts OutputLinear to a shortlist (outrows.go)
	outRows *RowSubset
	// op profiling (profile.go): nil when off
	prof      *OpProfile
	profMark  time.Time
	tapeNames []string
	// grads redirects parameter gradients (gradset.go); nil: their own
	grads *GradSet
	// shard: this graph computes sentences [shardFirst, shardFirst+shardCount)
	// of a batch (dropout keys, SetShard); shardCount 0: the whole batch
	shardFirst, shardCount int
}

// NewGraph returns a graph that records a tape for backward, with dropout on.
func NewGraph(seed uint64) *Graph {
	g := &Graph{record: true, DropoutOn: true, arena: newArena(), seed: seed, threads: runtime.GOMAXPROCS(0)}
	g.be = cpuBackend{g}
	return g
}

// NewInference returns a graph that records nothing and never drops out.
func NewInference() *Graph {
	g := &Graph{arena: newArena(), threads: runtime.GOMAXPROCS(0)}
	g.be = cpuBackend{g}
	return g
}

// Recording reports whether ops are being taped for backward.
func (g *Graph) Recording() bool { return g.record }

// SetThreads fixes the number of goroutines kernels split rows over. Results
// are bit-identical for a fixed seed and thread count.
func (g *Graph) SetThreads(n int) {
	if n < 1 {
		n = 1
	}
	g.threads = n
}

// Threads is the kernel parallelism.
func (g *Graph) Threads() int { return g.threads }

// RNGState returns the dropout counter, to be saved in checkpoints.
func (g *Graph) RNGState() (seed, counter uint64) { return g.seed, g.counter }

// SetRNGState restores the dropout RNG.
func (g *Graph) SetRNGState(seed, counter uint64) { g.seed, g.counter = seed, counter }

// HeldBytes is the memory the arena holds (in use or cached).
func (g *Graph) HeldBytes() int { return g.arena.held }

// ResetAndDrop resets g and lets the garbage collector have every buffer
// its arena cached: for a graph about to run work of another shape (a
// decoding searcher moving from a batch's encoder, whose buffers are
// sentence × length rows wide, to its steps, whose buffers are beam rows
// wide, and back), so that it does not hold the cache of one phase while
// running the other. It returns the bytes dropped.
func (g *Graph) ResetAndDrop() int {
	g.Reset()
	return g.arena.dropFree()
}

// Reset forgets the tape and returns every intermediate buffer to the arena.
// Tensors produced by this graph must not be used afterwards.
func (g *Graph) Reset() {
	clear(g.tape)
	g.tape = g.tape[:0]
	clear(g.tapeOut)
	g.tapeOut = g.tapeOut[:0]
	g.arena.release()
	g.headers.reset()
	if g.prof != nil {
		g.profMark = time.Now()
		g.tapeNames = g.tapeNames[:0]
	}
}

// Backward seeds ∂loss/∂loss = 1 on a one-element tensor and runs the tape in
// reverse. Parameter gradients accumulate into their Grad buffers.
//
// The gradient of an intermediate tensor is recycled (and its Grad set to
// nil) as soon as the op that produced it has run its backward step: every
// op that reads it comes later on the tape and has run already. This keeps
// the peak memory of a step near that of its forward pass. Parameters and
// other leaves keep their gradients.
func (g *Graph) Backward(loss *Tensor) {
	g.BackwardScaled(loss, 1)
}

// BackwardScaled is Backward with the seed gradient set to scale (used to
// normalise a summed loss by the number of tokens).
func (g *Graph) BackwardScaled(loss *Tensor, scale float32) {
	if !g.record {
		panic("engine: Backward on an inference graph")
	}
	if loss.Size() != 1 {
		panic(fmt.Sprintf("engine: Backward needs a scalar, got %v", loss.Shape()))
	}
	if !loss.needGrad {
		return
	}
	g.grad(loss)[0] += scale
	g.runTape()
}

// BackwardWith seeds the gradient of any output y with dy (len = y.Size())
// and runs the tape: ∂(Σ dy·y)/∂inputs. Gradient checks use it.
func (g *Graph) BackwardWith(y *Tensor, dy []float32) {
	if !g.record {
		panic("engine: Backward on an inference graph")
	}
	if !y.needGrad {
		return
	}
	g.be.Axpy(g.grad(y), dy, 1)
	g.runTape()
}

func (g *Graph) runTape() {
	profile := g.prof != nil && len(g.tapeNames) == len(g.tape)
	for i := len(g.tape) - 1; i >= 0; i-- {
		var start time.Time
		if profile {
			start = time.Now()
		}
		g.tape[i]()
		if out := g.tapeOut[i]; out.arenaGrad {
			g.be.Free(out.Grad)
			out.Grad, out.arenaGrad = nil, false
		}
		if profile {
			g.prof.Backward[g.tapeNames[i]] += time.Since(start)
		}
	}
	g.tapeNames = g.tapeNames[:0]
	clear(g.tape)
	g.tape = g.tape[:0]
	clear(g.tapeOut)
	g.tapeOut = g.tapeOut[:0]
	if g.prof != nil {
		g.profMark = time.Now()
	}
}

// Mark returns a point in an inference graph's history for ReleaseSince.
func (g *Graph) Mark() int { return g.arena.mark() }

// ReleaseSince gives back to the arena the buffers of every tensor an
// inference graph produced since mark, except keep's, so that a deep stack
// run layer by layer holds about one layer's intermediates instead of all
// of them (PyTorch frees each tensor as its last use goes; the arena cannot
// know uses, so callers that know a layer's intermediates are dead say so).
// Tensors produced since mark, other than keep, must not be used
// afterwards. It panics on a recording graph, whose tape needs them.
func (g *Graph) ReleaseSince(mark int, keep ...*Tensor) {
	if g.record {
		panic("engine: ReleaseSince on a recording graph")
	}
	k := make([][]float32, len(keep))
	for i, t := range keep {
		k[i] = t.Data
	}
	g.arena.releaseSince(mark, k)
}

// newTensor returns an arena-backed tensor with undefined contents that needs
// a gradient when any of the inputs does (and the graph records).
func (g *Graph) newTensor(inputs []*Tensor, shape ...int) *Tensor {
	t := g.headers.get()
	t.setShape(shape)
	t.Data = g.be.Alloc(t.Size())
	if g.record {
		for _, in := range inputs {
			if in != nil && in.needGrad {
				t.needGrad = true
				break
			}
		}
	}
	return t
}

// Const wraps data as a tensor that needs no gradient (inputs, masks).
func (g *Graph) Const(data []float32, shape ...int) *Tensor {
	t := g.headers.get()
	t.setShape(shape)
	if len(data) != t.Size() {
		panic(fmt.Sprintf("engine.Const: %d values for shape %v", len(data), shape))
	}
	t.Data = data
	return t
}

// Zeros returns an arena tensor filled with zeros and no gradient.
func (g *Graph) Zeros(shape ...int) *Tensor {
	t := g.newTensor(nil, shape...)
	clear(t.Data)
	return t
}

// Scratch returns an arena buffer valid until Reset (for callers that build
// masks or indices per step without allocating).
func (g *Graph) Scratch(n int) []float32 { return g.arena.get(n) }

// grad returns t's gradient buffer, allocating a zeroed one from the arena on
// first use.
func (g *Graph) grad(t *Tensor) []float32 {
	if t.Grad == nil {
		t.Grad = g.be.Zeros(t.Size())
		t.arenaGrad = true
		return t.Grad
	}
	return g.paramGrad(t)
}

// addGrad adds a·src to t's gradient. When t has no gradient buffer yet, src
// is scaled in place and becomes it, which saves zeroing and reading a
// buffer as large as the logits; src must be an arena buffer that the caller
// no longer needs.
func (g *Graph) addGrad(t *Tensor, src []float32, a float32) {
	if t.Grad == nil {
		if a != 1 {
			g.be.ScaleInPlace(src, a)
		}
		t.Grad, t.arenaGrad = src, true
		return
	}
	g.be.Axpy(g.paramGrad(t), src, a)
}

// push records a backward closure when any output needs a gradient.
func (g *Graph) push(out *Tensor, fn func()) {
	if out.needGrad {
		if g.prof != nil {
			g.profileForward(fn)
		}
		g.tape = append(g.tape, fn)
		g.tapeOut = append(g.tapeOut, out)
	}
}
