package model

import (
	"math"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// Releasing the float32 projections of a model changes none of its int8
// logits, on every architecture, and releases exactly the projections:
// the embedding tables (looked up in float32, one tied to the output
// layer) and the biases, norms and layer-combination weights stay.
func TestReleaseFloat32(t *testing.T) {
	for _, arch := range []Arch{ArchTransformer, ArchMSC, ArchDLCL, ArchTransparent} {
		t.Run(string(arch), func(t *testing.T) {
			m := mustNew(t, tinyDeep(arch, NormPre))
			bt := toyBatch()
			logits := func(g *engine.Graph) []float32 {
				enc := m.Encode(g, bt.Src, bt.B, bt.S, Collect{})
				return append([]float32(nil), m.Decode(g, enc, bt.TgtIn, bt.T, Collect{}).Logits.Data...)
			}
			i8 := engine.NewInference()
			i8.SetCompute(engine.ComputeType{Products: engine.FormatInt8, Cache: engine.FormatF32})
			want := logits(i8)

			if freed := ReleaseFloat32(m); freed == 0 {
				t.Fatal("released nothing")
			}
			released := 0
			for _, p := range m.Params().List() {
				isProj := len(p.Shape()) == 2 && strings.Contains(p.Name, "weight") &&
					!strings.Contains(p.Name, "embed") && !strings.Contains(p.Name, "history") &&
					!strings.Contains(p.Name, "transparent")
				if p.Data == nil {
					released++
					if !isProj {
						t.Errorf("%s %v released", p.Name, p.Shape())
					}
				} else if isProj {
					t.Errorf("projection %s kept its float32 values", p.Name)
				}
			}
			if released == 0 {
				t.Fatal("no parameter released")
			}
			i8.Reset()
			got := logits(i8)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("logit %d: %v after release, %v before", i, got[i], want[i])
				}
			}
			// a float32 inference graph takes the int8 path for the
			// released weights (the tied output layer stays float32)
			f32 := logits(engine.NewInference())
			if d := relL1(f32, want); d > 0.02 {
				t.Errorf("float32 graph after release: logits %.4f (relative L1) from int8's", d)
			}
			defer func() {
				if recover() == nil {
					t.Error("training a released model did not panic")
				}
			}()
			m.Encode(engine.NewGraph(1), bt.Src, bt.B, bt.S, Collect{})
		})
	}
}

func relL1(a, b []float32) float64 {
	var d, n float64
	for i := range a {
		d += math.Abs(float64(a[i] - b[i]))
		n += math.Abs(float64(b[i]))
	}
	return d / n
}
