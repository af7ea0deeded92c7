package model

import (
	"fmt"
	"math"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// fusedConfig is tinyConfig at a width whose rows are whole dropout-mask
// words (32), so that the residuals and norms really fuse.
func fusedConfig(norm Norm) Config {
	c := tinyConfig(norm)
	c.DModel, c.FFN = 32, 48
	c.Dropout = 0.2
	return c
}

// A training step with the residuals and norms fused (Sublayer.ApplyNext,
// engine.AddDropoutNorm) equals the unfused chain bit for bit: the loss and
// every parameter's gradient, for each norm placement, with dropout on.
func TestFusedNormsMatchChain(t *testing.T) {
	defer func(f bool) { fuseResidualNorm = f }(fuseResidualNorm)
	for _, norm := range []Norm{NormPost, NormPre, NormSwapPre} {
		m := NewTransformer(fusedConfig(norm), 2)
		step := func(fuse bool) []float32 {
			fuseResidualNorm = fuse
			m.Params().ZeroGrad()
			g := engine.NewGraph(5)
			res := Loss(g, m, toyBatch(), 0.1)
			g.Backward(res.Loss)
			out := []float32{res.Loss.Item()}
			for _, p := range m.Params().List() {
				out = append(out, p.Grad...)
			}
			return out
		}
		fused, chain := step(true), step(false)
		for i := range fused {
			if math.Float32bits(fused[i]) != math.Float32bits(chain[i]) {
				t.Fatalf("%s: value %d: fused %v, chain %v", norm, i, fused[i], chain[i])
			}
		}
	}
}

// The finite-difference check of TestComposedModelGradients at a width
// where the residuals and norms fuse.
func TestFusedNormsModelGradients(t *testing.T) {
	for _, norm := range []Norm{NormPost, NormPre} {
		checkModelGrad(t, fmt.Sprintf("fused %s", norm), NewTransformer(fusedConfig(norm), 1), toyBatch())
	}
}
