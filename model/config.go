// Package model builds encoder-decoder Transformers from engine ops: the
// standard model with every LayerNorm placement the zero-shot paper compares,
// and (in the msc/dlcl/transparent files) the deep architectures of the MSC
// paper. Model code calls engine ops only.
package model

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Norm is a LayerNorm placement (docs/models.md has the equations).
type Norm string

// The norm placements.
const (
	NormPost    Norm = "post"
	NormPre     Norm = "pre"
	NormSwapPre Norm = "swap-pre"
)

// Arch names an architecture (a constructor registered in architectures).
type Arch string

// The architectures.
const (
	ArchTransformer Arch = "transformer"
	ArchMSC         Arch = "msc"
	ArchDLCL        Arch = "dlcl"
	ArchTransparent Arch = "transparent"
)

// Config describes a model. Every field can be set in YAML and overridden on
// the command line as key=value (yaml names).
type Config struct {
	Preset string `yaml:"preset,omitempty"`
	// Arch: transformer, msc, dlcl, transparent.
	Arch          Arch `yaml:"arch"`
	EncoderLayers int  `yaml:"encoder_layers"`
	DecoderLayers int  `yaml:"decoder_layers"`
	DModel        int  `yaml:"d_model"`
	FFN           int  `yaml:"ffn_dim"`
	Heads         int  `yaml:"heads"`
	// EncoderNorm / DecoderNorm: post, pre or swap-pre.
	EncoderNorm Norm `yaml:"encoder_norm"`
	DecoderNorm Norm `yaml:"decoder_norm"`
	// NormParams false gives LayerNorm without gain and bias (Appendix E).
	NormParams bool `yaml:"norm_params"`
	// FinalNorm adds a LayerNorm on top of pre and swap-pre stacks (fairseq
	// does for pre-norm); ignored for post.
	FinalNorm         bool    `yaml:"final_norm"`
	Dropout           float32 `yaml:"dropout"`
	AttentionDropout  float32 `yaml:"attention_dropout"`
	ActivationDropout float32 `yaml:"activation_dropout"`
	// ShareAllEmbeddings ties encoder input, decoder input and output
	// projection (joint vocabulary); ShareDecoderInputOutput ties only the
	// decoder's two.
	ShareAllEmbeddings      bool `yaml:"share_all_embeddings"`
	ShareDecoderInputOutput bool `yaml:"share_decoder_input_output"`
	// NoResidualLayer drops the residual around the self-attention of this
	// encoder layer (1-based; 0 = none): the paper's "w/o Res.".
	NoResidualLayer int `yaml:"no_residual_layer"`
	SrcVocab        int `yaml:"src_vocab"`
	TgtVocab        int `yaml:"tgt_vocab"`
	PadID           int `yaml:"pad_id"`
	// VocabHash is the content hash of the vocabulary the model was built
	// for (data.Vocab.Hash), set by training from the data directory;
	// whoever pairs the model with a data directory compares the two.
	// Empty in models saved before it was recorded.
	VocabHash string `yaml:"vocab_hash,omitempty" json:",omitempty"`

	Deep DeepConfig `yaml:"deep,omitempty"`
}

var presets = map[string]Config{
	"tiny":              base(2, 2, 64, 128, 4),
	"transformer-iwslt": base(6, 6, 512, 1024, 4),
	"msc-small":         base(6, 6, 256, 512, 4),
	"transformer-base":  base(6, 6, 512, 2048, 8),
	"transformer-big":   base(6, 6, 1024, 4096, 16),
}

func base(enc, dec, d, ffn, heads int) Config {
	return Config{
		Arch: ArchTransformer, EncoderLayers: enc, DecoderLayers: dec, DModel: d, FFN: ffn, Heads: heads,
		EncoderNorm: NormPost, DecoderNorm: NormPost, NormParams: true, FinalNorm: true,
		Dropout: 0.1, ShareAllEmbeddings: true, Deep: defaultDeep(),
	}
}

// Presets lists the preset names.
func Presets() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Preset returns a named preset.
func Preset(name string) (Config, error) {
	c, ok := presets[name]
	if !ok {
		return Config{}, fmt.Errorf("unknown model preset %q (have %s)", name, strings.Join(Presets(), ", "))
	}
	c.Preset = name
	return c, nil
}

// LoadConfig reads a YAML model config. A `preset:` key supplies defaults
// that the other keys override; unknown keys are an error.
func LoadConfig(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	return ParseConfig(path, b)
}

// ParseConfig parses YAML bytes; name is used in error messages.
func ParseConfig(name string, b []byte) (Config, error) {
	var probe struct {
		Preset string `yaml:"preset"`
	}
	if err := yaml.Unmarshal(b, &probe); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	c := base(6, 6, 512, 2048, 8)
	if probe.Preset != "" {
		p, err := Preset(probe.Preset)
		if err != nil {
			return Config{}, fmt.Errorf("%s: %w", name, err)
		}
		c = p
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		return Config{}, fmt.Errorf("%s: %w", name, err)
	}
	return c, nil
}

// Override applies "key=value" settings (yaml field names, dotted for
// nested: deep.blocks=6) to c.
func (c *Config) Override(settings []string) error {
	for _, s := range settings {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("model override %q: expected key=value", s)
		}
		if err := setField(reflect.ValueOf(c).Elem(), strings.Split(k, "."), v); err != nil {
			return fmt.Errorf("model override %q: %w", s, err)
		}
	}
	return nil
}

// yamlName is a field's name in YAML and in overrides ("" when untagged).
func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}

func setField(v reflect.Value, path []string, val string) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if yamlName(t.Field(i)) != path[0] {
			continue
		}
		f := v.Field(i)
		if len(path) > 1 {
			if f.Kind() != reflect.Struct {
				return fmt.Errorf("%s is not a section", path[0])
			}
			return setField(f, path[1:], val)
		}
		return setScalar(f, val)
	}
	return fmt.Errorf("unknown field %q (have %s)", path[0], strings.Join(fieldNames(t), ", "))
}

// fieldNames lists the yaml names of a section's fields, a nested section
// as "name.…", so that a mistyped override shows what it could have been.
func fieldNames(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		name := yamlName(t.Field(i))
		if name == "" || name == "-" {
			continue
		}
		if t.Field(i).Type.Kind() == reflect.Struct {
			name += ".…"
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func setScalar(f reflect.Value, val string) error {
	switch f.Kind() {
	case reflect.String:
		f.SetString(val)
	case reflect.Int:
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("expected an integer, got %q", val)
		}
		f.SetInt(int64(n))
	case reflect.Float32, reflect.Float64:
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return fmt.Errorf("expected a number, got %q", val)
		}
		f.SetFloat(x)
	case reflect.Bool:
		b, err := strconv.ParseBool(val)
		if err != nil {
			return fmt.Errorf("expected true or false, got %q", val)
		}
		f.SetBool(b)
	case reflect.Slice:
		if f.Type().Elem().Kind() != reflect.Int {
			return fmt.Errorf("unsupported list type")
		}
		var xs []int
		for _, p := range strings.Split(val, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return fmt.Errorf("expected a comma-separated list of integers, got %q", val)
			}
			xs = append(xs, n)
		}
		f.Set(reflect.ValueOf(xs))
	default:
		return fmt.Errorf("cannot set a %s from the command line", f.Kind())
	}
	return nil
}

// Validate reports the first inconsistency in c.
func (c *Config) Validate() error {
	switch {
	case c.EncoderLayers < 1 || c.DecoderLayers < 1:
		return fmt.Errorf("model: encoder_layers and decoder_layers must be ≥ 1 (got %d, %d)", c.EncoderLayers, c.DecoderLayers)
	case c.DModel < 1 || c.FFN < 1 || c.Heads < 1:
		return fmt.Errorf("model: d_model, ffn_dim and heads must be positive")
	case c.DModel%c.Heads != 0:
		return fmt.Errorf("model: d_model %d is not divisible by heads %d", c.DModel, c.Heads)
	case c.SrcVocab < 1 || c.TgtVocab < 1:
		return fmt.Errorf("model: src_vocab and tgt_vocab must be set (got %d, %d)", c.SrcVocab, c.TgtVocab)
	case c.ShareAllEmbeddings && c.SrcVocab != c.TgtVocab:
		return fmt.Errorf("model: share_all_embeddings needs one joint vocabulary (src %d, tgt %d)", c.SrcVocab, c.TgtVocab)
	case c.PadID < 0 || c.PadID >= c.SrcVocab || c.PadID >= c.TgtVocab:
		return fmt.Errorf("model: pad_id %d outside the vocabulary (src %d, tgt %d)", c.PadID, c.SrcVocab, c.TgtVocab)
	case c.NoResidualLayer < 0 || c.NoResidualLayer > c.EncoderLayers:
		return fmt.Errorf("model: no_residual_layer %d outside 1..%d", c.NoResidualLayer, c.EncoderLayers)
	case c.Dropout < 0 || c.Dropout >= 1 || c.AttentionDropout < 0 || c.AttentionDropout >= 1 ||
		c.ActivationDropout < 0 || c.ActivationDropout >= 1:
		return fmt.Errorf("model: dropout rates must be in [0, 1)")
	}
	for _, n := range []Norm{c.EncoderNorm, c.DecoderNorm} {
		if n != NormPost && n != NormPre && n != NormSwapPre {
			return fmt.Errorf("model: norm placement %q (want post, pre or swap-pre)", n)
		}
	}
	return c.validateArch()
}

// EncoderFinalNorm and DecoderFinalNorm say whether a stack ends with a
// LayerNorm: FinalNorm asks for it, and only pre and swap-pre stacks take
// it (a post-norm stack already ends with one).
func (c *Config) EncoderFinalNorm() bool { return c.FinalNorm && c.EncoderNorm != NormPost }

// DecoderFinalNorm: see EncoderFinalNorm.
func (c *Config) DecoderFinalNorm() bool { return c.FinalNorm && c.DecoderNorm != NormPost }

// SameArchitecture reports why two configs' parameters are incompatible, or
// nil (dropout and other training-only settings may differ).
func (c Config) SameArchitecture(o Config) error {
	a, b := c, o
	for _, x := range []*Config{&a, &b} {
		x.Preset, x.Dropout, x.AttentionDropout, x.ActivationDropout = "", 0, 0, 0
		x.Deep.WeightDropout = 0
		x.VocabHash = "" // a vocabulary, not an architecture: compared by the caller
	}
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("different architectures: %s vs %s", a.Summary(), b.Summary())
	}
	return nil
}

// Summary is a one-line description.
func (c Config) Summary() string {
	return fmt.Sprintf("%s %d+%d layers d=%d ffn=%d heads=%d norm=%s/%s vocab=%d/%d",
		c.Arch, c.EncoderLayers, c.DecoderLayers, c.DModel, c.FFN, c.Heads, c.EncoderNorm, c.DecoderNorm, c.SrcVocab, c.TgtVocab)
}
