package model

import (
	"strings"
	"testing"
)

// FuzzParseConfig: YAML model configs with --set overrides (one per line of
// sets) give a config or an error, never a panic.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte("preset: tiny\n"), "d_model=32\nheads=2")
	f.Add([]byte("preset: transformer-base\nencoder_layers: 3\nencoder_norm: pre\n"), "")
	f.Add([]byte("arch: msc\nencoder_layers: 6\ndecoder_layers: 3\ndeep: {blocks: 3, context: gru, block_layers: [1, 2, 3]}\nsrc_vocab: 10\ntgt_vocab: 10\n"), "deep.context=ffn\ndeep.block_layers=2,2,2")
	f.Add([]byte("arch: dlcl\nd_model: 16\nffn_dim: 8\n"), "dropout=0.3\nsrc_vocab=7\ntgt_vocab=7\nshare_all_embeddings=false")
	f.Add([]byte("presett: tiny\n"), "nope=1")
	f.Fuzz(func(t *testing.T, b []byte, sets string) {
		c, err := ParseConfig("fuzz.yaml", b)
		if err != nil {
			return
		}
		var settings []string
		if sets != "" {
			settings = strings.Split(sets, "\n")
		}
		if err := c.Override(settings); err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			return
		}
		_ = c.Summary()
		_ = c.SameArchitecture(c)
		if _, err := c.blockSizes(); c.Arch == ArchMSC && err != nil {
			t.Fatalf("valid msc config without block sizes: %v", err)
		}
	})
}
