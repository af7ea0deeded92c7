package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Params is an ordered, named set of trainable tensors. Names follow
// fairseq's state-dict style ("encoder.layers.3.self_attn.q_proj.weight") so
// that checkpoints read naturally and per-layer statistics can be grouped by
// prefix.
type Params struct {
	list   []*Tensor
	byName map[string]*Tensor
	// wholes are the tensors Adopt made views of (fused projections)
	wholes []*Tensor
	// views records where each adopted view lies (gradset.go)
	views map[*Tensor]view
}

// view is where an adopted parameter lies in its whole tensor.
type view struct {
	whole *Tensor
	off   int
}

// NewParams returns an empty set.
func NewParams() *Params { return &Params{byName: map[string]*Tensor{}} }

// New creates, registers and returns a zero parameter of the given shape.
func (p *Params) New(name string, shape ...int) *Tensor {
	if _, dup := p.byName[name]; dup {
		panic(fmt.Sprintf("engine: parameter %q registered twice", name))
	}
	t := NewTensor(shape...)
	t.Name = name
	t.SetRequiresGrad(true)
	p.list = append(p.list, t)
	p.byName[name] = t
	return t
}

// List returns the parameters in registration order.
func (p *Params) List() []*Tensor { return p.list }

// Get returns the named parameter or nil.
func (p *Params) Get(name string) *Tensor { return p.byName[name] }

// Names returns the sorted parameter names.
func (p *Params) Names() []string {
	names := make([]string, 0, len(p.list))
	for _, t := range p.list {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// Count is the total number of scalars.
func (p *Params) Count() int {
	n := 0
	for _, t := range p.list {
		n += t.Size()
	}
	return n
}

// ZeroGrad clears every gradient.
func (p *Params) ZeroGrad() {
	for _, t := range p.list {
		t.ZeroGrad()
	}
}

// DropGrads frees every gradient buffer and marks the parameters as not
// trainable, for a model that will only be used for inference: the
// gradients are as large as the weights (50 MB of the decoding
// benchmark's model) and inference never touches them.
func (p *Params) DropGrads() {
	for _, t := range append(p.list[:len(p.list):len(p.list)], p.wholes...) {
		t.needGrad, t.Grad = false, nil
	}
}

// GradNorm returns the global L2 norm of the gradients (float64 sums).
func (p *Params) GradNorm() float64 {
	var s float64
	for _, t := range p.list {
		for _, g := range t.Grad {
			s += float64(g) * float64(g)
		}
	}
	return math.Sqrt(s)
}

// RNG is the generator initialisers draw from (PCG, seeded, reproducible
// across platforms).
type RNG = rand.Rand

// NewRNG returns a seeded generator.
func NewRNG(seed uint64) *RNG { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// XavierUniform fills t (fan_out×fan_in, PyTorch's convention for a linear
// weight) from U(-a, a), a = gain·sqrt(6/(fan_in+fan_out)).
func XavierUniform(t *Tensor, gain float64, r *RNG) {
	fanOut, fanIn := t.Dim(0), t.Size()/t.Dim(0)
	a := gain * math.Sqrt(6/float64(fanIn+fanOut))
	for i := range t.Data {
		t.Data[i] = float32((r.Float64()*2 - 1) * a)
	}
}

// Normal fills t from N(0, std²) (embeddings use std = d^-0.5).
func Normal(t *Tensor, std float64, r *RNG) {
	for i := range t.Data {
		t.Data[i] = float32(r.NormFloat64() * std)
	}
}

// Uniform fills t from U(lo, hi).
func Uniform(t *Tensor, lo, hi float64, r *RNG) {
	for i := range t.Data {
		t.Data[i] = float32(lo + r.Float64()*(hi-lo))
	}
}

// Fill sets every element (zeros and ones initialisers).
func Fill(t *Tensor, v float32) {
	for i := range t.Data {
		t.Data[i] = v
	}
}

// Adopt registers a parameter that is a view of part of a larger tensor:
// elements [off, off+size) of whole's data and gradient. Models use it to
// name fused projections the way checkpoints expect (q_proj, k_proj, v_proj)
// while computing them with one GEMM.
func (p *Params) Adopt(name string, whole *Tensor, off int, shape ...int) *Tensor {
	if _, dup := p.byName[name]; dup {
		panic(fmt.Sprintf("engine: parameter %q registered twice", name))
	}
	n := 1
	for _, s := range shape {
		n *= s
	}
	t := FromData(whole.Data[off:off+n:off+n], shape...)
	t.Name = name
	t.needGrad = true
	t.Grad = whole.Grad[off : off+n : off+n]
	if !slices.Contains(p.wholes, whole) {
		p.wholes = append(p.wholes, whole)
	}
	if p.views == nil {
		p.views = map[*Tensor]view{}
	}
	p.views[t] = view{whole, off}
	p.list = append(p.list, t)
	p.byName[name] = t
	return t
}
