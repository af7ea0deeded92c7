package engine

import (
	"fmt"
	"slices"
	"sync"
	"unsafe"
)

// Backend owns a graph's tensor storage and runs its arithmetic. The Graph
// methods keep the tape (shapes, which inputs need gradients, the backward
// closures) and call their graph's backend once per op for the numbers,
// so the cost of the seam is an interface call per op, never per element.
//
// Buffers are host []float32 views: the CPU and reference backends are
// host backends. docs/backends.md says how a device backend (CUDA, loaded
// at run time) maps them to device memory, copying only at the graph's
// edges.
//
// Backward methods add into their destination slices; a nil destination
// is a gradient nobody needs. Every backend must pass the conformance
// suite (engine/backendtest).
type Backend interface {
	// Name is the name the registry lists it under.
	Name() string

	// Storage. Alloc returns a buffer of n elements with undefined
	// contents, Zeros one of zeros; both stay valid until the graph's
	// Reset. Free hands one back early (a consumed gradient).
	Alloc(n int) []float32
	Zeros(n int) []float32
	Free(buf []float32)

	// Products.
	Gemm(ta, tb bool, m, n, k int, alpha float32, a []float32, lda int,
		b []float32, ldb int, beta float32, c []float32, ldc int)
	// LinearForward sets y = x·Wᵀ + b (b may be nil); LinearBackward adds
	// the gradients, fetching each buffer with grad only when needed (nil
	// tensors and tensors without needGrad get none).
	LinearForward(x, w, b, y *Tensor)
	LinearBackward(x, w, b *Tensor, dy []float32, grad func(*Tensor) []float32)

	// Elementwise.
	Unary(op UnaryOp, x, y []float32)
	UnaryBackward(op UnaryOp, x, y, dy, dx []float32)
	Affine(x, y []float32, c, d float32)    // y = c·x + d
	AddScaled(a, b, y []float32, s float32) // y = a + s·b
	Mul(a, b, y []float32)                  // y = a ⊙ b
	MulBackward(a, b, dy, da, db []float32) // da += dy⊙b, db += dy⊙a
	Axpy(dst, src []float32, a float32)     // dst += a·src
	ScaleInPlace(x []float32, a float32)    // x = a·x
	Sum(x []float32) float64                // Σx in float64
	AddConst(dst []float32, c float32)      // dst += c

	// Rows (n rows of v or d columns).
	Softmax(x, y []float32, n, v int)
	SoftmaxBackward(y, dy, dx []float32, n, v int)
	LogSoftmax(x, y []float32, n, v int)
	LogSoftmaxBackward(y, dy, dx []float32, n, v int)
	// LayerNorm normalises x's rows (eps LayerNormEps) and applies gain
	// and bias (either may be nil); mean and rstd, when not nil, receive
	// each row's mean and 1/σ for LayerNormBackward.
	LayerNorm(x, gain, bias, y, mean, rstd []float32, n, d int)
	LayerNormBackward(x, gain, dy, mean, rstd, dx, dgain, dbias []float32, n, d int)

	// Embeddings: y[i] = scale·w[ids[i]]; dw[ids[i]] += scale·dy[i].
	EmbedGather(w []float32, ids []int32, scale float32, y []float32, d int)
	EmbedScatter(dw []float32, ids []int32, dy []float32, scale float32, d int)
	// AddRows: y[i] = x[i] + table[pos[i]] (positions).
	AddRows(x, table []float32, pos []int32, y []float32, d int)

	// Dropout: element i is kept iff DropKeep(key, i, threshold); kept
	// elements are scaled, dropped ones are +0; mask gets one bit per
	// element, 32 to a word, for DropoutBackward.
	Dropout(x, y []float32, mask []uint32, key uint64, threshold uint32, scale float32)
	DropoutBackward(dy, dx []float32, mask []uint32, scale float32)

	// SmoothedCE is fairseq's label-smoothed cross-entropy over n rows of
	// v logits; rows whose target is pad count nothing. It returns the
	// summed loss and NLL and, when dlogits is not nil, writes the
	// gradient of the loss with respect to the logits there.
	SmoothedCE(logits []float32, n, v int, targets []int32, eps float32, pad int32, dlogits []float32) (loss, nll float64)

	// Fused ops (a backend without a fused kernel composes its
	// primitives): LinearReLU is ReLU(x·Wᵀ + b), its backward may
	// overwrite dy; AddDropout is x + Dropout(f).
	LinearReLU(x, w, b, y *Tensor)
	LinearReLUBackward(x, w, b *Tensor, y, dy []float32, grad func(*Tensor) []float32)
	AddDropout(x, f, y []float32, mask []uint32, key uint64, threshold uint32, scale float32)
	AddDropoutBackward(dy, dx, df []float32, mask []uint32, scale float32)

	// Copies and weighted sums (shape ops): CopyBlock copies a rows×cols
	// block between matrices with leading dimensions ldd and lds, or
	// adds it when add; WeightedSum sets y = Σ w[i]·xs[i]; Dot is Σ a·b
	// in float64.
	CopyBlock(dst []float32, ldd int, src []float32, lds, rows, cols int, add bool)
	WeightedSum(y []float32, xs [][]float32, w []float32)
	Dot(a, b []float32) float64

	// Attention. AttentionForward writes, for each batch element and
	// head, the probabilities P = softmax(Scale·Q·Kᵀ) with masked keys
	// at exactly zero weight (a row whose keys are all masked is zeros)
	// to probs (B×Heads×Tq×Tk), and the context P̃·V to ctx
	// ((B·Tq)×(Heads·Dh), heads side by side). P̃ is P after dropout when
	// dropped is not nil, which then receives it; otherwise P itself.
	// AttentionBackward adds the gradients of q, k and v (any may be
	// nil; they may be column views of one buffer) from the context's
	// gradient dctx and the forward pass's probs and dropped.
	AttentionForward(a AttnArgs, q, k, v, ctx, probs, dropped []float32)
	AttentionBackward(a AttnArgs, q, k, v, probs, dropped, dctx, dq, dk, dv []float32)

	// AddDropoutNorm is AddDropout then LayerNorm over n rows of d:
	// y = x + Dropout(f) (y = x + f when mask is nil) and norm =
	// LayerNorm(y, gain, bias), mean and rstd as LayerNorm's. With a
	// mask, d is a multiple of 32: each row is whole mask words.
	// AddDropoutNormBackward runs the norm's backward of dnorm (when
	// not nil) into dgain, dbias and dy, y's gradient (which may hold
	// its other consumers' share already), then AddDropout's backward of
	// dy into dx and df; any destination may be nil.
	AddDropoutNorm(x, f, gain, bias, y, norm, mean, rstd []float32, mask []uint32,
		key uint64, threshold uint32, scale float32, n, d int)
	AddDropoutNormBackward(y, gain, dnorm, mean, rstd, dy []float32, mask []uint32, scale float32,
		dx, df, dgain, dbias []float32, n, d int)

	// OutputRows spreads a shortlisted output layer's n×len(rows)
	// products (sub) over y's n rows of v columns: column rows[i] gets
	// sub's column i, every other column -Inf (probability 0 after a
	// log-softmax).
	OutputRows(sub []float32, rows []int32, y []float32, n, v int)

	// Ensembles: y = log((1/K)·Σ_k e^xs[k]) elementwise (-Inf where
	// every member is), and dx += dy·e^(x-y)/K.
	LogMeanExp(y []float32, xs [][]float32)
	LogMeanExpBackward(x, y, dy, dx []float32, k int)

	// Adam applies one optimizer step (AdamUpdate's semantics).
	Adam(u AdamStep, w, grad, m, v []float32, l2 float32)

	// Decoding: inference only, no backward, reading and writing caches
	// that live outside the graph. The graph has checked shapes, indices
	// and pages before it calls these.
	//
	// StepAttention is multi-head attention of one query per row over tk
	// keys per row found through kv (Graph.StepAttention): query i is
	// q[i·ldq:][:heads·dh]; ctx gets the n×(heads·dh) contexts, probs the
	// n×heads×tk probabilities, scores scaled by 1/√dh, padded keys
	// weighing exactly 0 (a row with every key padded gets zeros).
	StepAttention(q []float32, ldq, n, tk, heads, dh int, kv KVRows, ctx, probs []float32)
	// BlockAttention is StepAttention with query i reading every key of
	// block kv.Block[i] (Graph.BlockAttention).
	BlockAttention(q []float32, ldq, n, heads, dh int, kv KVBlocks, ctx, probs []float32)
	// StoreRows copies n rows of width floats, lds apart in src, into rows
	// first.. of dst, ld apart; StoreRowsHalf rounds them to binary16
	// (HalfFromFloat32's rounding) on the way.
	StoreRows(dst []float32, ld, first int, src []float32, lds, n, width int)
	StoreRowsHalf(dst []uint16, ld, first int, src []float32, lds, n, width int)
	// LogSoftmaxInPlace is LogSoftmax(x, x, n, v): a step's logits
	// overwritten by their log-probabilities.
	LogSoftmaxInPlace(x []float32, n, v int)
}

// AttnArgs describe one multi-head attention op to a backend: B batch
// elements of Tq queries and Tk keys, Heads heads of width Dh. Queries,
// keys and values are row-major with rows Ldq, Ldk and Ldv apart (column
// views into wider tensors, such as a fused [Q|K|V] projection); head h
// reads columns [h·Dh, (h+1)·Dh) of each.
type AttnArgs struct {
	B, Tq, Tk, Heads, Dh int
	Ldq, Ldk, Ldv        int
	// Scale multiplies the scores (1/√Dh).
	Scale float32
	// KeyPad masks keys (B×Tk, true = masked); nil masks none.
	KeyPad []bool
	// Causal masks key j from query i when j > i + Tk - Tq.
	Causal bool
	// Dropout on the probabilities (when the op is given a dropped
	// buffer): P[job][i][j], job = b·Heads + h, is kept iff
	// DropKeep(DropKey, job·Tq·Tk + i·Tk + j, DropThreshold) and then
	// multiplied by DropScale.
	DropKey       uint64
	DropThreshold uint32
	DropScale     float32
}

// UnaryOp names an elementwise function of Backend.Unary.
type UnaryOp uint8

const (
	OpReLU UnaryOp = iota
	OpSigmoid
	OpTanh
)

func (op UnaryOp) String() string {
	switch op {
	case OpReLU:
		return "relu"
	case OpSigmoid:
		return "sigmoid"
	case OpTanh:
		return "tanh"
	}
	return fmt.Sprintf("unary(%d)", uint8(op))
}

// DropKeep reports whether element i of the dropout op with this key is
// kept: the counter-based generator every backend must reproduce, so that
// masks do not depend on the backend either.
func DropKeep(key uint64, i int, threshold uint32) bool { return keep(key, i, threshold) }

// BackendFactory makes the backend of one graph. A host backend may keep
// its buffers in the graph's arena (as both built-in backends do) and
// read the graph's thread count when it runs.
type BackendFactory func(g *Graph) Backend

var (
	backendsMu sync.Mutex
	backends   = map[string]BackendFactory{}
)

// RegisterBackend makes a backend selectable by name (SetBackend). A
// backend loaded at run time (a CUDA library found by purego) registers
// itself once it has found its library and a device.
func RegisterBackend(name string, f BackendFactory) {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	if _, dup := backends[name]; dup {
		panic(fmt.Sprintf("engine: backend %q registered twice", name))
	}
	backends[name] = f
}

// Backends lists the registered backends' names, sorted.
func Backends() []string {
	backendsMu.Lock()
	defer backendsMu.Unlock()
	names := make([]string, 0, len(backends))
	for n := range backends {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// BackendCPU and BackendReference are the built-in backends' names.
const (
	BackendCPU       = "cpu"
	BackendReference = "reference"
)

func init() {
	RegisterBackend(BackendCPU, func(g *Graph) Backend { return cpuBackend{g} })
	RegisterBackend(BackendReference, func(g *Graph) Backend { return &refBackend{g: g} })
}

// SetBackend makes g compute on the named backend. It must be called
// before g computes anything (or right after Reset).
func (g *Graph) SetBackend(name string) error {
	backendsMu.Lock()
	f, ok := backends[name]
	backendsMu.Unlock()
	if !ok {
		return fmt.Errorf("engine: no backend %q (have %v)", name, Backends())
	}
	if len(g.tape) > 0 || g.arena.inUseBytes > 0 {
		return fmt.Errorf("engine: SetBackend(%q) on a graph that has computed since its last Reset", name)
	}
	g.be = f(g)
	return nil
}

// Backend is the backend g computes on.
func (g *Graph) Backend() Backend { return g.be }

// int32Scratch is an arena buffer of n int32s (undefined contents), valid
// until Reset: indices handed to a backend without allocating per step.
func (g *Graph) int32Scratch(n int) []int32 {
	if n == 0 {
		return nil
	}
	buf := g.arena.get(n)
	return unsafe.Slice((*int32)(unsafe.Pointer(&buf[0])), n)
}
