package model

import (
	"fmt"
	"math"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// A float16 self-attention cache (a float16 cache in engine.ComputeType) gives the
// logits of full recomputation to within the rounding of keys and values
// to 11 significant bits, through the pure-Go kernels (head width 4) and
// the F16C ones (head width 32), and recycles a float32 state's buffers.
func TestHalfCacheMatchesFullDecode(t *testing.T) {
	src := []int32{4, 5, 6, 7, 2, 8, 9, 2, 0, 0}
	tgt := []int32{2, 11, 12, 13, 14, 2, 15, 16, 17, 18}
	const b, s, tl = 2, 5, 5
	for _, shape := range [][2]int{{16, 4}, {64, 2}} {
		cfg := tinyConfig(NormPre)
		cfg.DModel, cfg.FFN, cfg.Heads = shape[0], 32, shape[1]
		cfg.SrcVocab, cfg.TgtVocab = 30, 30
		mm, err := New(cfg, 7)
		if err != nil {
			t.Fatal(err)
		}
		m := mm.(*Transformer)
		want := fullLogits(m, src, b, s, tgt, tl)
		v := cfg.TgtVocab
		g := engine.NewInference()
		st := m.StartDecoding(g, m.Encode(g, src, b, s, Collect{}), b, tl, nil) // float32 first
		m.Step(g, st, []int32{tgt[0], tgt[tl]})
		g.SetCompute(engine.ComputeType{Products: engine.FormatF32, Cache: engine.FormatF16})
		st = m.StartDecoding(g, m.Encode(g, src, b, s, Collect{}), b, tl, st)
		g.Reset()
		for _, p := range st.(*transformerState).cache.pages {
			if p.f32 != nil {
				t.Fatalf("d %d: a half cache kept a float32 page of %d rows", shape[0], p.rows)
			}
		}
		worst := 0.0
		for step := 0; step < tl; step++ {
			logits := m.Step(g, st, []int32{tgt[step], tgt[tl+step]})
			for i := 0; i < b; i++ {
				w := want[(i*tl+step)*v : (i*tl+step+1)*v]
				for k, x := range logits.Data[i*v : (i+1)*v] {
					d := math.Abs(float64(x - w[k]))
					worst = max(worst, d)
					if d > 1e-2 {
						t.Fatalf("%s: logit %d is %v, full recomputation %v", fmt.Sprintf("d %d step %d row %d", shape[0], step, i), k, x, w[k])
					}
				}
			}
			g.Reset()
		}
		t.Logf("d %d, %d heads: largest logit difference %.2g", shape[0], shape[1], worst)
	}
}
