package engine

import (
	"fmt"
	"math"
	"sync"
)

// RowSubset restricts an output layer to some of its rows (a vocabulary
// shortlist): the rows of every weight it is applied to are gathered once
// into a smaller matrix (quantized on its own in int8 graphs), reused for
// every step that uses the subset.
type RowSubset struct {
	rows []int32
	mu   sync.Mutex
	subs map[*Tensor]*Tensor
}

// NewRowSubset selects rows (distinct, in any order).
func NewRowSubset(rows []int32) *RowSubset {
	return &RowSubset{rows: rows, subs: map[*Tensor]*Tensor{}}
}

// Rows are the selected rows.
func (s *RowSubset) Rows() []int32 { return s.rows }

// of returns w's selected rows as a matrix of their own. For an int8
// product (int8 set) the matrix holds them as int8 only: quantized per
// row, as w's own rows would be, and its float32 copy dropped, which
// Linear then reads as a weight released for int8 (productInt8). With the
// benchmark's 5,033-row shortlist that is 5 MB less per decoder.
func (s *RowSubset) of(w *Tensor, int8 bool) *Tensor {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.subs[w]; ok {
		return t
	}
	out, in := w.Dim(0), w.Cols()
	t := NewTensor(len(s.rows), in)
	for i, r := range s.rows {
		if r < 0 || int(r) >= out {
			panic(fmt.Sprintf("engine.RowSubset: row %d of a %d-row weight", r, out))
		}
		copy(t.Data[i*in:(i+1)*in], w.Data[int(r)*in:(int(r)+1)*in])
	}
	if int8 {
		int8Of(t)
		t.Data = nil
	}
	s.subs[w] = t
	return t
}

// SetOutputRows makes OutputLinear compute only the given rows of its
// weight (nil: all of them). Inference graphs only; Reset keeps it.
func (g *Graph) SetOutputRows(s *RowSubset) { g.outRows = s }

// OutputLinear is Linear without bias for a model's output layer: x·Wᵀ.
// Under SetOutputRows it computes the selected outputs only and sets the
// others to -Inf (a log-softmax then gives them probability 0), so the
// result keeps its full width and token ids stay column indices.
func (g *Graph) OutputLinear(x, w *Tensor) *Tensor {
	if g.outRows == nil || g.record {
		return g.Linear(x, w, nil)
	}
	mark := g.Mark()
	sub := g.Linear(x, g.outRows.of(w, g.productInt8(w)), nil)
	n, v := x.Rows(), w.Dim(0)
	y := g.newTensor(nil, n, v)
	g.be.OutputRows(sub.Data, g.outRows.rows, y.Data, n, v)
	// the subset's outputs are in y now
	g.ReleaseSince(mark, y)
	return y
}

// OutputRows on the CPU: rows split over the graph's threads.
func (c cpuBackend) OutputRows(sub []float32, rows []int32, y []float32, n, v int) {
	k := len(rows)
	inf := float32(math.Inf(-1))
	c.g.parallel(n, v, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			yr := y[r*v : (r+1)*v]
			for j := range yr {
				yr[j] = inf
			}
			for i, c := range sub[r*k : (r+1)*k] {
				yr[rows[i]] = c
			}
		}
	})
}
