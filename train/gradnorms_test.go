package train

import (
	"math"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/model"
)

// TestLayerGradNormsSharedLeavesOutMSCContext fills every gradient of an MSC
// model with ones: a layer's norm is then the square root of its parameter
// count, so the shared norm must count exactly the self-attention and FFN
// parameters (with their LayerNorms) and the full norm the context attention
// and gate as well.
func TestLayerGradNormsSharedLeavesOutMSCContext(t *testing.T) {
	cfg, err := model.Preset("msc-18")
	if err != nil {
		t.Fatal(err)
	}
	cfg.SrcVocab, cfg.TgtVocab = 50, 50
	m, err := model.New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string][2]int{} // layer → (all, shared) parameter counts
	for _, p := range m.Params().List() {
		for i := range p.Grad {
			p.Grad[i] = 1
		}
		const layer = "encoder.blocks.1.layers.2."
		if name, ok := strings.CutPrefix(p.Name, layer); ok {
			c := counts[layer]
			c[0] += p.Size()
			if !strings.HasPrefix(name, "context_") {
				c[1] += p.Size()
			}
			counts[layer] = c
		}
	}
	all, shared := LayerGradNorms(m.Params())
	c := counts["encoder.blocks.1.layers.2."]
	key := "encoder.blocks.1.layers.2"
	if got, want := all[key], math.Sqrt(float64(c[0])); math.Abs(got-want) > 1e-9 {
		t.Errorf("all %s = %v, want %v", key, got, want)
	}
	if got, want := shared[key], math.Sqrt(float64(c[1])); math.Abs(got-want) > 1e-9 {
		t.Errorf("shared %s = %v, want %v", key, got, want)
	}
	if share := 1 - float64(c[1])/float64(c[0]); share < 0.4 || share > 0.45 {
		t.Errorf("context parameters are %.3f of an msc-18 layer, the docs say about 43%%", share)
	}
	if len(shared) != len(all) {
		t.Errorf("%d layers with a shared norm, %d in all", len(shared), len(all))
	}
}
