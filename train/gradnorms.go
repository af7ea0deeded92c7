package train

import (
	"math"
	"regexp"

	"github.com/strata-nmt/strata/engine"
)

// layerKey matches the layer a parameter belongs to: encoder.layers.3,
// decoder.layers.0, encoder.blocks.2.layers.1 (MSC).
var layerKey = regexp.MustCompile(`^((?:encoder|decoder)\.(?:blocks\.\d+\.)?layers\.\d+)\.`)

// LayerGradNorms returns the L2 norm of the gradient of each encoder and
// decoder layer's parameters, keyed by layer name (the MSC paper's Figure 5).
func LayerGradNorms(p *engine.Params) map[string]float64 {
	sums := map[string]float64{}
	for _, t := range p.List() {
		m := layerKey.FindStringSubmatch(t.Name)
		if m == nil {
			continue
		}
		var s float64
		for _, g := range t.Grad {
			s += float64(g) * float64(g)
		}
		sums[m[1]] += s
	}
	for k, s := range sums {
		sums[k] = math.Sqrt(s)
	}
	return sums
}
