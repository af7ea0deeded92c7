package engine

// Gradient sets: several graphs running backward over the same weights at
// once (in-process data parallelism, train's workers) cannot all add into
// the parameters' own Grad buffers. Each extra graph gets a GradSet, a
// private buffer per trainable tensor, and Graph.SetGrads makes its
// backward pass accumulate there; the weights (Data) stay shared and are
// only read. Params.AddGrads then sums the sets into the parameters' own
// gradients, where the optimiser finds them.

// GradSet is a private set of gradient buffers shaped like a Params' tensors.
// A view registered with Params.Adopt gets the matching part of its whole
// tensor's buffer, as in the Params themselves.
type GradSet struct {
	of map[*Tensor][]float32
	// own are the disjoint buffers (one per tensor that owns gradient
	// memory: a parameter, or the whole tensor behind adopted views),
	// parallel to Params.owners()
	own [][]float32
}

// NewGradSet allocates a zeroed gradient set for p.
func (p *Params) NewGradSet() *GradSet {
	s := &GradSet{of: map[*Tensor][]float32{}}
	for _, o := range p.owners() {
		buf := make([]float32, len(o.Grad))
		s.of[o] = buf
		s.own = append(s.own, buf)
	}
	for _, t := range p.list {
		if v, ok := p.views[t]; ok {
			s.of[t] = s.of[v.whole][v.off : v.off+len(t.Grad) : v.off+len(t.Grad)]
		}
	}
	return s
}

// Zero clears every buffer.
func (s *GradSet) Zero() {
	for _, b := range s.own {
		clear(b)
	}
}

// owners returns the tensors that own gradient memory, in registration
// order: parameters that are not views, and the whole tensor of each group
// of adopted views (at its first view).
func (p *Params) owners() []*Tensor {
	var out []*Tensor
	seen := map[*Tensor]bool{}
	for _, t := range p.list {
		o := t
		if v, ok := p.views[t]; ok {
			o = v.whole
		}
		if !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}

// AddGrads adds the gradients of sets (made by p.NewGradSet) into p's own,
// in parallel over element ranges on threads goroutines. Each element is
// summed in the same order (own, then sets in order) whatever the thread
// count.
func (p *Params) AddGrads(sets []*GradSet, threads int) {
	if len(sets) == 0 {
		return
	}
	owners := p.owners()
	total := 0
	for _, o := range owners {
		total += len(o.Grad)
	}
	g := &Graph{threads: max(threads, 1)}
	// chunks of the concatenation of the owned buffers
	g.parallel(total, len(sets), func(_, lo, hi int) {
		off := 0
		for i, o := range owners {
			n := len(o.Grad)
			a, b := max(lo-off, 0), min(hi-off, n)
			if a < b {
				for _, s := range sets {
					axpy(o.Grad[a:b], s.own[i][a:b], 1)
				}
			}
			off += n
			if off >= hi {
				break
			}
		}
	})
}

// SetGrads makes the graph's backward pass accumulate parameter gradients
// into s instead of the parameters' own Grad buffers (nil: back to those).
// s must come from the Params of the tensors the graph computes with.
func (g *Graph) SetGrads(s *GradSet) { g.grads = s }

// paramGrad returns the gradient buffer of a tensor that owns one (not an
// arena intermediate): its redirection in the graph's GradSet, if any.
func (g *Graph) paramGrad(t *Tensor) []float32 {
	if g.grads != nil && !t.arenaGrad {
		if b, ok := g.grads.of[t]; ok {
			return b
		}
	}
	return t.Grad
}
