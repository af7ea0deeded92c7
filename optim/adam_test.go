package optim

import (
	"strings"
	"testing"

	"github.com/strata-nmt/strata/model"
)

// L2 on the encoder group must touch encoder weights only: not the decoder,
// not the shared embeddings.
func TestL2RestrictedToGroup(t *testing.T) {
	cfg, _ := model.Preset("tiny")
	cfg.SrcVocab, cfg.TgtVocab = 14, 14
	m := model.NewTransformer(cfg, 1)
	a, err := NewAdam(m.Params().List(), AdamConfig{Beta1: 0.9, Beta2: 0.98, Eps: 1e-8, L2: map[string]float64{"encoder": 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]float32{}
	for _, p := range m.Params().List() {
		before[p.Name] = p.Data[0]
	}
	a.Update(1e-2) // gradients are zero: only L2 moves weights
	for _, p := range m.Params().List() {
		moved := p.Data[0] != before[p.Name] && before[p.Name] != 0
		isEnc := strings.HasPrefix(p.Name, "encoder.") && !strings.Contains(p.Name, "embed_tokens")
		if moved != isEnc && before[p.Name] != 0 {
			t.Errorf("%s: moved=%v, want %v", p.Name, moved, isEnc)
		}
	}
	if _, err := NewAdam(m.Params().List(), AdamConfig{L2: map[string]float64{"encodr": 1}}); err == nil {
		t.Error("an unknown group must be an error")
	}
}
