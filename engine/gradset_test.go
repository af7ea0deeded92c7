package engine

import (
	"math"
	"testing"
)

// shardLoss is Σ Dropout(AddDropout(x, x·Wᵀ+b)) over sentences [lo, hi) of
// a batch of rows×d activations per sentence, on g.
func shardLoss(g *Graph, x []float32, w, b *Tensor, rows, d, lo, hi, batch int) float32 {
	g.Reset()
	g.SetRNGState(9, 100)
	if hi-lo < batch {
		g.SetShard(lo, hi-lo)
	} else {
		g.SetShard(0, 0)
	}
	xs := g.Const(x[lo*rows*d:hi*rows*d], (hi-lo)*rows, d)
	y := g.AddDropout(xs, g.Linear(xs, w, b), 0.3)
	loss := g.Sum(g.Dropout(y, 0.2))
	g.Backward(loss)
	return loss.Item()
}

// Two graphs on shards of a batch, one accumulating into a GradSet, give
// the unsplit batch's loss and gradients: the dropout masks follow the
// sentence, not the shard, and AddGrads sums the sets.
func TestShardsWithGradSetsMatchWholeBatch(t *testing.T) {
	const batch, rows, d = 5, 3, 8
	p := NewParams()
	whole := NewTensor(2*d, d)
	whole.SetRequiresGrad(true)
	w := p.Adopt("w", whole, d*d, d, d) // a view, as fused projections are
	b := p.New("b", d)
	r := NewRNG(1)
	Normal(whole, 0.5, r)
	Normal(b, 0.5, r)
	x := make([]float32, batch*rows*d)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	want := shardLoss(NewGraph(1), x, w, b, rows, d, 0, batch, batch)
	wantW, wantB := append([]float32(nil), w.Grad...), append([]float32(nil), b.Grad...)
	p.ZeroGrad()

	set := p.NewGradSet()
	g1 := NewGraph(1)
	g1.SetGrads(set)
	got := shardLoss(NewGraph(1), x, w, b, rows, d, 0, 2, batch) + shardLoss(g1, x, w, b, rows, d, 2, batch, batch)
	if math.Abs(float64(got-want)) > 1e-4*math.Abs(float64(want)) {
		t.Fatalf("shard losses sum to %v, the whole batch's is %v", got, want)
	}
	inSet := 0.0
	for _, v := range set.of[w] {
		inSet += math.Abs(float64(v))
	}
	if inSet == 0 {
		t.Fatal("the second graph's gradients did not go to its GradSet")
	}
	p.AddGrads([]*GradSet{set}, 2)
	for i := range wantW {
		if math.Abs(float64(w.Grad[i]-wantW[i])) > 1e-4 {
			t.Fatalf("w gradient %d: %v, want %v", i, w.Grad[i], wantW[i])
		}
	}
	for i := range wantB {
		if math.Abs(float64(b.Grad[i]-wantB[i])) > 1e-4 {
			t.Fatalf("b gradient %d: %v, want %v", i, b.Grad[i], wantB[i])
		}
	}
	for _, v := range whole.Grad[:d*d] {
		if v != 0 {
			t.Fatal("a gradient landed outside the adopted view")
		}
	}
}
