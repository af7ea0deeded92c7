package model

import (
	"fmt"
	"strings"
)

// DeepConfig holds the options of the deep architectures (MSC, DLCL,
// transparent attention). Only the fields of the chosen arch are used;
// docs/models-deep.md describes each one with its equation.
type DeepConfig struct {
	// Blocks is the number of encoder blocks N for MSC (= decoder layers).
	Blocks int `yaml:"blocks"`
	// BlockLayers optionally gives M_1..M_N (summing to encoder_layers);
	// empty means encoder_layers/blocks layers in every block.
	BlockLayers []int `yaml:"block_layers,omitempty"`
	// BlockScale: decoder layer n attends to encoder block n (Eq. 7);
	// false attends every decoder layer to the top block.
	BlockScale bool `yaml:"block_scale"`
	// Context is the contextual-collaboration cell Q of Eq. 9: gru (the
	// paper), ffn (Table 5's "Q as FFN") or none ("remove contextual
	// collaboration": block-scale only).
	Context string `yaml:"context"`
	// ContextMode says how Q meets sequences: position (a GRU step at every
	// source position, shared weights; C is a sequence usable as attention
	// keys) or pooled (Q runs on mean-pooled block outputs; C is one vector
	// per sentence, attended as a single key).
	ContextMode string `yaml:"context_mode"`
	// ContextEncAttn: encoder layers of block n attend to C^{n-1} (Eq. 12);
	// false is Table 5's "remove Cxt-Enc Attention".
	ContextEncAttn bool `yaml:"context_enc_attn"`
	// Fusion of the hidden and context attentions: gate (Eq. 12-13) or add.
	Fusion string `yaml:"fusion"`
	// DLCLDecoder applies the dynamic linear combination in the decoder too
	// (Wang et al. 2019 do); false keeps it to the encoder.
	DLCLDecoder bool `yaml:"dlcl_decoder"`
	// WeightDropout is dropout on transparent-attention weights.
	WeightDropout float32 `yaml:"weight_dropout"`
}

// Deep option values.
const (
	ContextGRU       = "gru"
	ContextFFN       = "ffn"
	ContextNone      = "none"
	ContextPosition  = "position"
	ContextPooled    = "pooled"
	FusionGate       = "gate"
	FusionAdd        = "add"
	defaultMSCBlocks = 6
)

func defaultDeep() DeepConfig {
	return DeepConfig{
		Blocks: defaultMSCBlocks, BlockScale: true, Context: ContextGRU, ContextMode: ContextPosition,
		ContextEncAttn: true, Fusion: FusionGate, DLCLDecoder: true,
	}
}

func (c *Config) validateArch() error {
	switch c.Arch {
	case ArchTransformer, ArchDLCL:
		return nil
	case ArchTransparent:
		if w := c.Deep.WeightDropout; w < 0 || w >= 1 {
			return fmt.Errorf("model: deep.weight_dropout %g outside [0, 1)", w)
		}
		return nil
	case ArchMSC:
		return c.validateMSC()
	default:
		return fmt.Errorf("model: unknown arch %q (want transformer, msc, dlcl or transparent)", c.Arch)
	}
}

func (c *Config) validateMSC() error {
	d := c.Deep
	if d.Blocks < 1 {
		return fmt.Errorf("model: msc needs deep.blocks ≥ 1 (got %d)", d.Blocks)
	}
	if c.DecoderLayers != d.Blocks {
		return fmt.Errorf("model: msc has one decoder layer per block: decoder_layers %d ≠ deep.blocks %d", c.DecoderLayers, d.Blocks)
	}
	if _, err := c.blockSizes(); err != nil {
		return err
	}
	if !oneOf(d.Context, ContextGRU, ContextFFN, ContextNone) {
		return fmt.Errorf("model: deep.context %q (want gru, ffn or none)", d.Context)
	}
	if !oneOf(d.ContextMode, ContextPosition, ContextPooled) {
		return fmt.Errorf("model: deep.context_mode %q (want position or pooled)", d.ContextMode)
	}
	if !oneOf(d.Fusion, FusionGate, FusionAdd) {
		return fmt.Errorf("model: deep.fusion %q (want gate or add)", d.Fusion)
	}
	return nil
}

// blockSizes returns M_1..M_N.
func (c *Config) blockSizes() ([]int, error) {
	d := c.Deep
	if len(d.BlockLayers) == 0 {
		if c.EncoderLayers%d.Blocks != 0 {
			return nil, fmt.Errorf("model: encoder_layers %d is not divisible by deep.blocks %d (set deep.block_layers)", c.EncoderLayers, d.Blocks)
		}
		sizes := make([]int, d.Blocks)
		for i := range sizes {
			sizes[i] = c.EncoderLayers / d.Blocks
		}
		return sizes, nil
	}
	if len(d.BlockLayers) != d.Blocks {
		return nil, fmt.Errorf("model: deep.block_layers has %d entries for %d blocks", len(d.BlockLayers), d.Blocks)
	}
	sum := 0
	for _, m := range d.BlockLayers {
		if m < 1 {
			return nil, fmt.Errorf("model: deep.block_layers %v: every block needs ≥ 1 layer", d.BlockLayers)
		}
		sum += m
	}
	if sum != c.EncoderLayers {
		return nil, fmt.Errorf("model: deep.block_layers %v sum to %d, encoder_layers is %d", d.BlockLayers, sum, c.EncoderLayers)
	}
	return d.BlockLayers, nil
}

func oneOf(s string, options ...string) bool {
	for _, o := range options {
		if s == o {
			return true
		}
	}
	return false
}

// ParamGroup names the group a parameter belongs to, for per-group
// regularisation (the trainer's --l2 encoder=1e-5): embedding matrices form
// the group "embeddings"; every other parameter belongs to the first
// component of its name ("encoder", "decoder"). Embeddings are kept out of
// "encoder" because with shared vocabularies the source embedding is also
// the decoder's input and output matrix, and the MSC paper's L2 is meant for
// the weights of the deep encoder stack.
func ParamGroup(name string) string {
	if strings.Contains(name, "embed_tokens") || strings.Contains(name, "output_projection") {
		return "embeddings"
	}
	g, _, _ := strings.Cut(name, ".")
	return g
}

// The deep presets: the MSC paper's shapes (msc-small widths 256/512/4 heads,
// N=6 blocks, pre-norm as the paper's deep models) and same-shape baselines.
// Dropout follows the paper's Table 2: 0.1 up to 18 layers, 0.3 (residual
// and attention) from 36 layers on.
func init() {
	for _, depth := range []int{6, 18, 36, 54, 72} {
		c := base(depth, defaultMSCBlocks, 256, 512, 4)
		c.EncoderNorm, c.DecoderNorm = NormPre, NormPre
		if depth >= 36 {
			c.Dropout, c.AttentionDropout = 0.3, 0.3
		}
		msc := c
		msc.Arch = ArchMSC
		presets[fmt.Sprintf("msc-%d", depth)] = msc
		for _, norm := range []Norm{NormPre, NormPost} {
			p := c
			p.EncoderNorm, p.DecoderNorm = norm, norm
			presets[fmt.Sprintf("deep-%s-%d", norm, depth)] = p
			p.Arch = ArchDLCL
			presets[fmt.Sprintf("dlcl-%s-%d", norm, depth)] = p
		}
		tr := c
		tr.Arch, tr.Deep.WeightDropout = ArchTransparent, 0.1
		presets[fmt.Sprintf("transparent-%d", depth)] = tr
	}
}
