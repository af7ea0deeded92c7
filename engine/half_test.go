package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// StepAttention over a half cache equals StepAttention over the same
// values widened to float32, and StoreRowsHalf stores what
// HalfFromFloat32 gives.
func TestStepAttentionHalfCache(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, tk, heads, d = 6, 9, 4, 64
	src := NewTensor(tk, 2*d)
	for i := range src.Data {
		src.Data[i] = float32(r.NormFloat64())
	}
	g := NewInference()
	half := make([]uint16, tk*2*d)
	g.StoreRowsHalf(half, 2*d, 0, Cols{T: src}, 2*d)
	wide := make([]float32, len(half))
	for i, h := range half {
		if want := HalfFromFloat32(src.Data[i]); h != want {
			t.Fatalf("stored %#04x at %d, want %#04x", h, i, want)
		}
		wide[i] = Float32FromHalf(h)
	}
	q := NewTensor(n, d)
	for i := range q.Data {
		q.Data[i] = float32(r.NormFloat64())
	}
	idx := make([]int32, n*tk)
	for i := range idx {
		idx[i] = int32(r.IntN(tk))
	}
	a, _ := g.StepAttention(Cols{T: q}, n, tk, heads, KVRows{Data: wide, LD: 2 * d, VCol: d, Index: idx})
	b, _ := g.StepAttention(Cols{T: q}, n, tk, heads, KVRows{Half: half, LD: 2 * d, VCol: d, Index: idx})
	for i := range a.Data {
		if math.Abs(float64(a.Data[i]-b.Data[i])) > 1e-5 {
			t.Fatalf("context %d: %v over halves, %v over widened floats", i, b.Data[i], a.Data[i])
		}
	}
}
