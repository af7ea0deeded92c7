package engine

import (
	"math"
	"testing"
)

// TestReferenceGradients establishes the reference backend, which the
// conformance suite (engine/backendtest) measures every backend against:
// its gradients agree with central finite differences of its own forward
// pass (gradCheck, differences formed in float64).
func TestReferenceGradients(t *testing.T) {
	defer func(b string) { gradBackend = b }(gradBackend)
	gradBackend = BackendReference
	for name, test := range map[string]func(*testing.T){
		"LinearAndMatMul":   TestGradLinearAndMatMul,
		"Elementwise":       TestGradElementwise,
		"WeightedSum":       TestGradWeightedSum,
		"LayerNorm":         TestGradLayerNorm,
		"EmbedAndPositions": TestGradEmbedAndPositions,
		"LabelSmoothedCE":   TestGradLabelSmoothedCE,
		"Attention":         TestGradAttention,
		"AttentionTiles":    TestGradAttentionTiles,
		"AddDropoutNorm":    TestGradAddDropoutNorm,
	} {
		t.Run(name, test)
	}
}

// TestReferenceForward checks the reference backend's forward values of
// ops with a closed form on a hand-made row.
func TestReferenceForward(t *testing.T) {
	g := NewGraph(1)
	if err := g.SetBackend(BackendReference); err != nil {
		t.Fatal(err)
	}
	x := g.Const([]float32{1, 2, 3, 4}, 1, 4)
	sm := g.Softmax(x)
	den := math.Exp(1) + math.Exp(2) + math.Exp(3) + math.Exp(4)
	for j, v := range sm.Data {
		if want := math.Exp(float64(j+1)) / den; math.Abs(float64(v)-want) > 1e-7 {
			t.Errorf("softmax[%d] = %g, want %g", j, v, want)
		}
	}
	ln := g.LayerNorm(x, nil, nil)
	// mean 2.5, variance 1.25
	for j, v := range ln.Data {
		if want := (float64(j+1) - 2.5) / math.Sqrt(1.25+LayerNormEps); math.Abs(float64(v)-want) > 1e-6 {
			t.Errorf("layernorm[%d] = %g, want %g", j, v, want)
		}
	}
	w := g.Const([]float32{1, 0, -1, 2, 0.5, 0.5, 0.5, 0.5}, 2, 4)
	y := g.Linear(x, w, g.Const([]float32{10, 20}, 2))
	if y.Data[0] != 10+1-3+8 || y.Data[1] != 20+5 {
		t.Errorf("linear = %v, want [16 25]", y.Data)
	}
}

func TestSetBackendErrors(t *testing.T) {
	g := NewGraph(1)
	if err := g.SetBackend("no-such"); err == nil {
		t.Error("SetBackend accepted an unknown name")
	}
	g.Zeros(3)
	if err := g.SetBackend(BackendReference); err == nil {
		t.Error("SetBackend accepted a graph that has computed")
	}
	g.Reset()
	if err := g.SetBackend(BackendReference); err != nil || g.Backend().Name() != BackendReference {
		t.Errorf("SetBackend after Reset: %v", err)
	}
}

// TestReferenceAttentionForward: with zero queries every visible key gets
// the same weight, so the context is the mean of the visible values; the
// causal mask and key padding decide which are visible.
func TestReferenceAttentionForward(t *testing.T) {
	g := NewGraph(1)
	if err := g.SetBackend(BackendReference); err != nil {
		t.Fatal(err)
	}
	q := g.Zeros(3, 2)
	kv := g.Const([]float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 3, 4) // [K|V], V rows (3,4), (7,8), (11,12)
	causal, _ := g.Attention(Cols{q, 0}, Cols{kv, 0}, Cols{kv, 2}, 1, 3, 3, AttnOptions{Heads: 1, Causal: true})
	padded, probs := g.Attention(Cols{q, 0}, Cols{kv, 0}, Cols{kv, 2}, 1, 3, 3,
		AttnOptions{Heads: 1, KeyPad: []bool{false, true, false}})
	for i, want := range [][]float32{{3, 4}, {5, 6}, {7, 8}} {
		if got := causal.Data[2*i : 2*i+2]; got[0] != want[0] || got[1] != want[1] {
			t.Errorf("causal context row %d = %v, want %v", i, got, want)
		}
		if got := padded.Data[2*i : 2*i+2]; got[0] != 7 || got[1] != 8 {
			t.Errorf("padded context row %d = %v, want [7 8]", i, got)
		}
		if p := probs.Data[3*i : 3*i+3]; p[0] != 0.5 || p[1] != 0 || p[2] != 0.5 {
			t.Errorf("padded probabilities row %d = %v, want [0.5 0 0.5]", i, p)
		}
	}
}
