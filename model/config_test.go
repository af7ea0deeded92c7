package model

import (
	"strings"
	"testing"
)

func TestConfigErrorsAreClear(t *testing.T) {
	for yml, want := range map[string]string{
		"preset: tiny\nencoder_layerz: 3\n":      "field encoder_layerz not found",
		"preset: huge\n":                         `unknown model preset "huge"`,
		"preset: tiny\nencoder_norm: middle\n":   `norm placement "middle"`,
		"preset: tiny\nd_model: 65\n":            "not divisible by heads",
		"preset: tiny\nno_residual_layer: 9\n":   "no_residual_layer 9 outside 1..2",
		"preset: tiny\ndropout: 1.5\n":           "dropout rates",
		"preset: tiny\nencoder_layers: [1, 2]\n": "cannot unmarshal",
		"preset: tiny\narch: resnet\n":           `unknown arch "resnet"`,
	} {
		c, err := ParseConfig("m.yaml", []byte(yml))
		if err == nil {
			c.SrcVocab, c.TgtVocab = 10, 10
			err = c.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to mention %q", yml, err, want)
		}
	}
}

func TestOverride(t *testing.T) {
	c, _ := Preset("tiny")
	if err := c.Override([]string{"encoder_norm=swap-pre", "no_residual_layer=2", "dropout=0.3", "norm_params=false"}); err != nil {
		t.Fatal(err)
	}
	if c.EncoderNorm != NormSwapPre || c.NoResidualLayer != 2 || c.Dropout != 0.3 || c.NormParams {
		t.Fatalf("overrides not applied: %+v", c)
	}
	for _, bad := range []string{"dropout", "nope=1", "encoder_layers=two", "norm_params=maybe"} {
		if err := c.Override([]string{bad}); err == nil {
			t.Errorf("override %q must fail", bad)
		}
	}
	// a mistyped field lists the section's fields
	for set, want := range map[string]string{"d_modle=3": "d_model, decoder_layers", "deep.blokcs=3": "block_scale, blocks, context"} {
		if err := c.Override([]string{set}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("override %q: %v, want the fields listed (%s)", set, err, want)
		}
	}
}
