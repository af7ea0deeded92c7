package engine

import (
	"fmt"
	"math"
	"sync"
)

// Embed looks up rows of W (V×D) for ids and multiplies them by scale
// (sqrt(D) in the Transformer). The gradient is scattered back into W; rows
// are partitioned by vocabulary id across goroutines so the scatter is free
// of races and deterministic.
func (g *Graph) Embed(w *Tensor, ids []int32, scale float32) *Tensor {
	v, d := w.Dim(0), w.Cols()
	for i, id := range ids {
		if id < 0 || int(id) >= v {
			panic(fmt.Sprintf("engine.Embed: id %d at %d outside vocabulary of %d", id, i, v))
		}
	}
	y := g.newTensor([]*Tensor{w}, len(ids), d)
	g.be.EmbedGather(w.Data, ids, scale, y.Data, d)
	g.push(y, func() {
		if y.Grad == nil || !w.needGrad {
			return
		}
		g.be.EmbedScatter(g.grad(w), ids, y.Grad, scale, d)
	})
	return y
}

func (c cpuBackend) EmbedGather(w []float32, ids []int32, scale float32, y []float32, d int) {
	c.g.parallel(len(ids), d, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			src := w[int(ids[i])*d : int(ids[i]+1)*d]
			dst := y[i*d : (i+1)*d]
			for j, x := range src {
				dst[j] = x * scale
			}
		}
	})
}

// EmbedScatter on the CPU: rows partitioned by vocabulary id across
// goroutines, so the scatter is free of races and deterministic.
func (c cpuBackend) EmbedScatter(dw []float32, ids []int32, dy []float32, scale float32, d int) {
	if d == 0 {
		return
	}
	v := len(dw) / d
	c.g.parallel(v, len(ids)/8+1, func(_, lo, hi int) {
		for i, id := range ids {
			if int(id) < lo || int(id) >= hi {
				continue
			}
			axpy(dw[int(id)*d:int(id+1)*d], dy[i*d:(i+1)*d], scale)
		}
	})
}

// AddPositions adds fairseq's sinusoidal position embeddings to x, viewed as
// (B, T, D) where ids is the B×T token matrix. A non-pad token at time step t
// gets position padIdx+1+start+t; pad tokens get position padIdx, whose row
// is zero (fairseq's make_positions for right-padded batches). start is the
// offset of the first step, used by incremental decoding.
func (g *Graph) AddPositions(x *Tensor, ids []int32, t, padIdx, start int) *Tensor {
	d := x.Cols()
	if x.Rows() != len(ids) || len(ids)%t != 0 {
		panic(fmt.Sprintf("engine.AddPositions: x %v for %d ids of length %d", x.Shape(), len(ids), t))
	}
	table := sinusoids(d, padIdx+start+t+1, padIdx)
	pos := g.int32Scratch(len(ids))
	for i, id := range ids {
		pos[i] = int32(padIdx)
		if id != int32(padIdx) {
			pos[i] = int32(padIdx + 1 + start + i%t)
		}
	}
	y := g.newTensor([]*Tensor{x}, x.Shape()...)
	g.be.AddRows(x.Data, table, pos, y.Data, d)
	g.push(y, func() {
		if y.Grad == nil || !x.needGrad {
			return
		}
		g.be.Axpy(g.grad(x), y.Grad, 1)
	})
	return y
}

func (c cpuBackend) AddRows(x, table []float32, pos []int32, y []float32, d int) {
	c.g.parallel(len(pos), d, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			row := table[int(pos[i])*d : int(pos[i]+1)*d]
			xs, ys := x[i*d:(i+1)*d], y[i*d:(i+1)*d]
			for j := range ys {
				ys[j] = xs[j] + row[j]
			}
		}
	})
}

type sinusoidKey struct{ d, pad int }

var (
	sinusoidMu     sync.Mutex
	sinusoidTables = map[sinusoidKey][]float32{}
)

// sinusoids returns a table of at least n positions × d, fairseq layout: the
// first half of each row is sin(pos·ω_i), the second cos(pos·ω_i), with
// ω_i = 10000^(-i/(d/2-1)); an odd d gets a zero last column; the padIdx row
// is zero. Tables grow on demand and are shared (read-only) by all graphs.
func sinusoids(d, n, padIdx int) []float32 {
	sinusoidMu.Lock()
	defer sinusoidMu.Unlock()
	key := sinusoidKey{d, padIdx}
	if tab := sinusoidTables[key]; len(tab) >= n*d {
		return tab
	}
	size := 1024
	for size < n {
		size *= 2
	}
	tab := make([]float32, size*d)
	half := d / 2
	step := math.Log(10000) / float64(half-1)
	for pos := 0; pos < size; pos++ {
		if pos == padIdx {
			continue
		}
		row := tab[pos*d:]
		for i := 0; i < half; i++ {
			// fairseq computes the frequencies and angles in float32.
			freq := float32(math.Exp(float64(i) * -step))
			angle := float64(float32(pos) * freq)
			row[i] = float32(math.Sin(angle))
			row[half+i] = float32(math.Cos(angle))
		}
	}
	sinusoidTables[key] = tab
	return tab
}

// SinusoidTable exposes the table (positions × d) for tests and analysis.
func SinusoidTable(d, n, padIdx int) []float32 { return sinusoids(d, n, padIdx)[:n*d] }
