package model

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// hostileModelFile is a valid tensor file holding one small tensor whose
// header carries config c.
func hostileModelFile(t *testing.T, c Config) []byte {
	t.Helper()
	x := engine.NewTensor(4)
	x.Name = "encoder.embed_tokens.weight"
	var b bytes.Buffer
	if err := engine.WriteTensors(&b, fileMeta{Kind: ModelKind, Config: c}, []*engine.Tensor{x}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A model file whose configuration asks for far more parameters than the
// file holds fails before the model is built; so does one whose pad_id is
// outside the vocabulary (it used to panic while clearing the pad row).
func TestReadModelHostileConfig(t *testing.T) {
	small := tinyConfig(NormPre)
	cases := []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"2^40 embedding", func(c *Config) { c.SrcVocab, c.TgtVocab, c.DModel, c.Heads = 1<<24, 1<<24, 1<<16, 1 }, "parameters"},
		{"million layers", func(c *Config) { c.EncoderLayers, c.DecoderLayers = 1<<20, 1<<20 }, "parameters"},
		{"dlcl 2^16 layers", func(c *Config) { c.Arch, c.DModel, c.FFN, c.Heads, c.EncoderLayers = "dlcl", 1, 1, 1, 1<<16 }, "parameters"},
		{"huge ffn", func(c *Config) { c.FFN = 1 << 40 }, "parameters"},
		{"pad_id outside vocabulary", func(c *Config) { c.PadID = 11 }, "pad_id"},
		{"negative pad_id", func(c *Config) { c.PadID = -1 }, "pad_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := small
			tc.edit(&c)
			file := hostileModelFile(t, c)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Read(bytes.NewReader(file))
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want one mentioning %q", err, tc.want)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 16<<20 {
				t.Fatalf("allocated %d MiB for a %d-byte file", n>>20, len(file))
			}
		})
	}
}
