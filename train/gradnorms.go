package train

import (
	"math"
	"regexp"

	"github.com/strata-nmt/strata/engine"
)

// layerKey matches the layer a parameter belongs to: encoder.layers.3,
// decoder.layers.0, encoder.blocks.2.layers.1 (MSC); the second group is the
// parameter's name inside the layer.
var layerKey = regexp.MustCompile(`^((?:encoder|decoder)\.(?:blocks\.\d+\.)?layers\.\d+)\.(.*)$`)

// sharedSublayer matches the parameters inside a layer that every encoder
// architecture has: self-attention and the FFN with their LayerNorms. MSC
// layers add context attention and a gate (about 43% of an msc-18 encoder
// layer's parameters), decoder layers add encoder attention; a norm over the
// shared part alone compares layers of different architectures like for like.
var sharedSublayer = regexp.MustCompile(`^(?:self_attn|self_attn_layer_norm|fc1|fc2|final_layer_norm)\.`)

// LayerGradNorms returns the L2 norm of the gradient of each encoder and
// decoder layer's parameters, keyed by layer name (the MSC paper's Figure 5),
// over all of a layer's parameters and over its shared part (sharedSublayer).
func LayerGradNorms(p *engine.Params) (all, shared map[string]float64) {
	all, shared = map[string]float64{}, map[string]float64{}
	for _, t := range p.List() {
		m := layerKey.FindStringSubmatch(t.Name)
		if m == nil {
			continue
		}
		var s float64
		for _, g := range t.Grad {
			s += float64(g) * float64(g)
		}
		all[m[1]] += s
		if sharedSublayer.MatchString(m[2]) {
			shared[m[1]] += s
		}
	}
	for _, sums := range []map[string]float64{all, shared} {
		for k, s := range sums {
			sums[k] = math.Sqrt(s)
		}
	}
	return all, shared
}
