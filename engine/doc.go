// Package engine is strata's compute engine: float32 tensors, a reverse-mode
// tape, and hand-written fused forward/backward kernels for the operations a
// Transformer needs. Matrix products run on packed-weight tile kernels (float32
// and int8) or engine/blas (OpenBLAS when it can be loaded at run time, gonum
// otherwise); the other kernels are Go with AVX2/AVX-512 assembly where it
// pays, parallelised over rows with deterministic chunking.
//
// # Why our own engine
//
// Go has no autodiff library that is fast on CPU for Transformers (GoMLX's
// pure-Go backend measured 6x slower than PyTorch and lacks ops), and the ops
// an encoder-decoder needs are few. Fusing them by hand (softmax with masking,
// log-softmax with label smoothing, layer norm with its statistics) saves the
// memory traffic a general framework spends on intermediate tensors.
//
// # Layers
//
// The graph, the ops and the compute types are this package. Below it,
// engine/internal/cpu detects the CPU and chooses once, at start-up, the
// instruction set every kernel runs with (capped by
// STRATA_ISA=go|avx2|avx512|avx512vnni), engine/internal/kernels holds
// the assembly kernels, the pure-Go references they are tested against,
// the functions that pick between them from that choice, and the packed
// float32 and int8 kernel tables (kernels.go names the ones the ops call),
// and engine/internal/format holds the per-format facts and the tensor
// file (layout, header, payloads, hostile-input checks), which
// WriteTensors, ReadTensors and FileFormat wrap. None imports engine. A purego
// build assembles nothing. docs/engine.md has the layers, the dispatch and
// recipes for a new kernel or compute type.
//
// # Backends
//
// A Graph keeps the tape and runs its ops' arithmetic through a Backend
// (backend.go), which also owns tensor storage: cpu, the kernels of this
// package (the default), or reference, plain float64 loops
// (backend_ref*.go); Graph.SetBackend picks one and RegisterBackend adds
// one (a GPU backend loaded at run time). engine/backendtest checks every
// backend against the reference; docs/backends.md has the design.
//
// # Compute types
//
// ComputeType says how an inference graph computes: products in float32 or
// int8, decoder caches in float32 or float16, the int8 activation width;
// Graph.SetCompute sets it, ResolveComputeType fills it from a model
// file's format (an int8 file decodes in int8), engine/internal/format's
// table holds each format's facts and format.go the kernel each format's
// products run on.
//
// # Model
//
// A Graph records the forward pass when it is created for training; each op
// appends a closure that propagates gradients. Graph.Backward runs the tape in
// reverse; parameter gradients accumulate (so several micro-batches can be
// summed before an optimiser step). Graph.Reset returns every intermediate
// buffer to the graph's arena, so a steady-state training step allocates
// almost nothing. A Graph built with NewInference records nothing.
//
// Tensors are contiguous row-major. Most ops view a tensor as a matrix of
// Rows() × Cols() where Cols is the last dimension.
//
// # Op set
//
//	Linear(x, W, b)            x·Wᵀ + b           (W is out×in, b may be nil)
//	LinearReLU(x, W, b)        ReLU(x·Wᵀ + b)     fused, bit-identical
//	OutputLinear(x, W)         x·Wᵀ, only a shortlist's rows under SetOutputRows
//	MatMul(a, b, ta, tb)       op(a)·op(b)
//	Embed(W, ids, scale)       scale·W[ids]       gradient scattered into W
//	AddPositions(x, ids, ...)  + sinusoidal positions (fairseq layout)
//	LayerNorm(x, gain, bias)   eps 1e-5, gain/bias may be nil (parameter-free)
//	AddDropoutNorm(x, f, p, gain, bias)
//	                           x + dropout(f) and its layer norm, fused
//	Add, Sub, Mul, Scale, OneMinus, ReLU, Sigmoid, Tanh
//	Dropout(x, p)              counter-based RNG: deterministic, parallel
//	Attention(q, k, v, ...)    multi-head scaled dot-product attention with
//	                           key-padding and causal masks, fused masked
//	                           softmax, attention dropout; returns the
//	                           probabilities for analysis
//	StepAttention(q, n, tk, heads, kv)
//	                           one decoding step against cached keys and
//	                           values (float32 or float16)
//	WeightedSum(xs, w, off)    Σ w[off+i]·xs[i], gradient to w too
//	Softmax(x)                 row-wise softmax
//	LabelSmoothedCE(logits, targets, eps, pad)
//	                           fused log-softmax + label-smoothed NLL,
//	                           fairseq semantics (ε/(V-1) on wrong classes)
//	ConcatCols, SliceCols, GatherRows, Sum, Mean
package engine
