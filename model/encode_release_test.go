package model

import (
	"math"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// At inference the encoder gives each layer's intermediates back to the
// arena (Graph.ReleaseSince). Its output must equal that of a recording
// graph, which keeps everything for backward, and of an inference run that
// collects the states (and so releases nothing), while holding less.
func TestInferenceEncoderReleaseKeepsOutput(t *testing.T) {
	cfgs := []Config{tinyConfig(NormPost), tinyConfig(NormPre), tinyDeep("msc", NormPre),
		tinyDeep("dlcl", NormPre), tinyDeep("dlcl", NormPost), tinyDeep("transparent", NormPre)}
	for _, cfg := range cfgs {
		cfg.EncoderLayers = 6
		cfg.Dropout = 0
		name := string(cfg.Arch) + "/" + string(cfg.EncoderNorm)
		m, err := New(cfg, 7)
		if err != nil {
			t.Fatal(err)
		}
		bt := toyBatch()
		recOut := m.Encode(engine.NewGraph(1), bt.Src, bt.B, bt.S, Collect{})
		kept := engine.NewInference()
		allOut := m.Encode(kept, bt.Src, bt.B, bt.S, Collect{States: true})
		freed := engine.NewInference()
		out := m.Encode(freed, bt.Src, bt.B, bt.S, Collect{})
		// allocate after the release: reused buffers must not touch Out
		m.Encode(freed, bt.Src, bt.B, bt.S, Collect{})
		// the top, every decoder layer's memory (MSC: its block) and contexts
		got := append([]*engine.Tensor{out.Out}, append(out.Memories, out.Context...)...)
		rec := append([]*engine.Tensor{recOut.Out}, append(recOut.Memories, recOut.Context...)...)
		all := append([]*engine.Tensor{allOut.Out}, append(allOut.Memories, allOut.Context...)...)
		for k := range got {
			for i, x := range got[k].Data {
				if math.Abs(float64(x-rec[k].Data[i])) > 1e-5 || x != all[k].Data[i] { // inference products run on the packed kernel, recording ones on OpenBLAS
					t.Fatalf("%s: tensor %d value %d is %v after release, %v recorded, %v kept", name, k, i, x, rec[k].Data[i], all[k].Data[i])
				}
			}
		}
		if freed.HeldBytes() >= 2*kept.HeldBytes() {
			t.Fatalf("%s: two releasing encodes hold %d bytes, one keeping encode %d", name, freed.HeldBytes(), kept.HeldBytes())
		}
	}
}
