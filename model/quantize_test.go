package model

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// A quantized model file is about a quarter of the float32 one, loads as
// a model, holds exactly the dequantized weights, and decodes in int8 like
// the model it came from.
func TestSaveInt8RoundTrip(t *testing.T) {
	cfg := tinyConfig(NormPre)
	cfg.DModel, cfg.FFN, cfg.SrcVocab, cfg.TgtVocab = 64, 128, 300, 300
	m, err := New(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	fp, qp := filepath.Join(dir, "f.bin"), filepath.Join(dir, "q.bin")
	if err := Save(fp, m, nil); err != nil {
		t.Fatal(err)
	}
	if err := SaveInt8(qp, m, map[string]any{"quantized": "int8"}); err != nil {
		t.Fatal(err)
	}
	fs, _ := os.Stat(fp)
	qs, _ := os.Stat(qp)
	if r := float64(qs.Size()) / float64(fs.Size()); r > 0.3 {
		t.Errorf("quantized file is %.2f of the float32 one (%d vs %d bytes), want about a quarter", r, qs.Size(), fs.Size())
	}
	q, err := Load(qp)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range m.Params().List() {
		got := q.Params().Get(p.Name)
		want := append([]float32(nil), p.Data...)
		if len(p.Shape()) == 2 {
			engine.QuantizeWeights(p.Data, p.Dim(0), p.Cols()).Dequantize(want)
		}
		for i := range want {
			if got.Data[i] != want[i] {
				t.Fatalf("%s[%d]: loaded %v, want %v", p.Name, i, got.Data[i], want[i])
			}
		}
	}
	// one decoder pass in int8 with either model, with each activation
	// width: the two differ only through the embeddings (looked up in
	// float32 from the original, dequantized from the file), whose
	// difference each product's activation rounding then carries on, so
	// the bound scales with the activation step (1/127 or 1/63 of a row's
	// largest value)
	bt := toyBatch()
	for _, c := range []struct {
		bits  int
		bound float64
	}{{8, 0.02}, {7, 0.04}} {
		logits := func(m Model) []float32 {
			g := engine.NewInference()
			g.SetCompute(engine.ComputeType{Products: engine.FormatInt8, Cache: engine.FormatF32, Int8Bits: c.bits})
			enc := m.Encode(g, bt.Src, bt.B, bt.S, Collect{})
			return append([]float32(nil), m.Decode(g, enc, bt.TgtIn, bt.T, Collect{}).Logits.Data...)
		}
		a, b := logits(m), logits(q)
		var d, n float64
		for i := range a {
			d += math.Abs(float64(a[i] - b[i]))
			n += math.Abs(float64(a[i]))
		}
		if d/n > c.bound {
			t.Errorf("%d-bit activations: int8 logits of the loaded model differ by %.4f (relative L1) from the original's (bound %v)", c.bits, d/n, c.bound)
		}
	}
}
