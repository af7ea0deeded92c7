package model

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

func tinyConfig(norm Norm) Config {
	c, _ := Preset("tiny")
	c.EncoderLayers, c.DecoderLayers, c.DModel, c.FFN, c.Heads = 2, 2, 8, 16, 2
	c.EncoderNorm, c.DecoderNorm = norm, norm
	c.SrcVocab, c.TgtVocab = 11, 11
	return c
}

// toyBatch: B=2, S=4, T=3, right padding with id 0.
func toyBatch() Batch {
	return Batch{
		Src:    []int32{4, 5, 6, 2, 7, 8, 2, 0},
		TgtIn:  []int32{2, 9, 10, 2, 4, 0},
		TgtOut: []int32{9, 10, 2, 4, 2, 0},
		B:      2, S: 4, T: 3,
	}
}

// A finite-difference check of the whole 2+2-layer encoder-decoder, for
// every LayerNorm placement, on a sample of every parameter tensor. Unlike
// the single-op checks, the model has ReLUs whose pre-activations can sit
// within 1e-2 of the kink. Each coordinate is therefore tried with steps
// 2e-3 and 5e-4 and passes if either agrees: a kink spoils at most the larger
// step, while a wrong gradient fails both. The float32 loss (about 10,
// rounding ~1e-6) carries at most ~2e-3 of noise in the smaller quotient,
// below the 5e-3 absolute tolerance.
func TestComposedModelGradients(t *testing.T) {
	for _, norm := range []Norm{NormPost, NormPre, NormSwapPre} {
		for _, params := range []bool{true, false} {
			cfg := tinyConfig(norm)
			cfg.NormParams = params
			cfg.Dropout = 0.1 // masks repeat: every graph has the same seed
			m, err := New(cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			checkModelGrad(t, fmt.Sprintf("%s params=%v", norm, params), m, toyBatch())
		}
	}
}

func checkModelGrad(t *testing.T, name string, m Model, bt Batch) {
	t.Helper()
	loss := func(backward bool) float64 {
		g := engine.NewGraph(3)
		res := Loss(g, m, bt, 0.1)
		if backward {
			g.Backward(res.Loss)
		}
		return float64(res.Loss.Item())
	}
	m.Params().ZeroGrad()
	loss(true)
	for _, p := range m.Params().List() {
		for j := 0; j < len(p.Data); j += max(1, len(p.Data)/3) {
			ana := float64(p.Grad[j])
			ok, nums := false, []float64{}
			for _, h := range []float32{2e-3, 5e-4} {
				orig := p.Data[j]
				p.Data[j] = orig + h
				fp := loss(false)
				p.Data[j] = orig - h
				fm := loss(false)
				p.Data[j] = orig
				num := (fp - fm) / float64(2*h)
				nums = append(nums, num)
				ok = ok || math.Abs(num-ana) <= 5e-3+3e-2*math.Abs(num)
			}
			if !ok {
				t.Fatalf("%s: %s[%d] analytic %.5g numeric %.5g", name, p.Name, j, ana, nums)
			}
		}
	}
}

func TestNoResidualChangesExactlyOneLayer(t *testing.T) {
	cfg := tinyConfig(NormPre)
	cfg.EncoderLayers = 4
	cfg.NoResidualLayer = 3
	m := NewTransformer(cfg, 1)
	for i, l := range m.Enc {
		want := i != 2
		if l.AttnSub.Residual != want || !l.FFNSub.Residual {
			t.Fatalf("layer %d: attention residual %v, ffn residual %v", i+1, l.AttnSub.Residual, l.FFNSub.Residual)
		}
	}
	for _, l := range m.Dec {
		if !l.SelfSub.Residual || !l.CrossSub.Residual || !l.FFNSub.Residual {
			t.Fatal("decoder residuals must be untouched")
		}
	}
	// and the outputs differ from the model with every residual
	cfg2 := cfg
	cfg2.NoResidualLayer = 0
	a, b := NewTransformer(cfg, 1), NewTransformer(cfg2, 1)
	la := Loss(engine.NewInference(), a, toyBatch(), 0).Loss.Item()
	lb := Loss(engine.NewInference(), b, toyBatch(), 0).Loss.Item()
	if la == lb {
		t.Fatal("removing a residual must change the function")
	}
}

func TestParameterNamesAndSharing(t *testing.T) {
	m := NewTransformer(tinyConfig(NormPre), 1)
	for _, name := range []string{
		"encoder.embed_tokens.weight", "encoder.layers.1.self_attn.q_proj.weight",
		"encoder.layers.1.self_attn.v_proj.bias", "decoder.layers.0.encoder_attn.k_proj.weight",
		"decoder.layers.1.fc2.weight", "encoder.layer_norm.weight", "decoder.layers.0.final_layer_norm.bias",
	} {
		if m.Params().Get(name) == nil {
			t.Errorf("missing parameter %s", name)
		}
	}
	if m.Emb.Src != m.Emb.Out || m.Params().Get("decoder.embed_tokens.weight") != nil {
		t.Error("share_all_embeddings must tie encoder, decoder and output embeddings")
	}
	post := NewTransformer(tinyConfig(NormPost), 1)
	if post.Params().Get("encoder.layer_norm.weight") != nil {
		t.Error("post-norm stacks have no final layer norm")
	}
	free := tinyConfig(NormPost)
	free.NormParams = false
	for _, n := range NewTransformer(free, 1).Params().Names() {
		if strings.Contains(n, "layer_norm") {
			t.Errorf("parameter-free LayerNorm registered %s", n)
		}
	}
}
