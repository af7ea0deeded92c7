package rundir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// A run written before vocabulary hashes, data keys and relative paths were
// recorded (absolute data_dir, a checkpoint without VocabHash) is continued
// by a rerun with the same model and data, and refused with another model.
func TestOldRunContinues(t *testing.T) {
	root := t.TempDir()
	run, data := filepath.Join(root, "run"), filepath.Join(root, "data")
	os.MkdirAll(run, 0o755)
	os.MkdirAll(data, 0o755)
	os.WriteFile(filepath.Join(run, InfoFile), []byte(`{"data_dir": "`+data+`", "model_config_summary": "x"}`), 0o644)
	cfg, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	cfg.SrcVocab, cfg.TgtVocab = 100, 100
	f, _ := os.Create(filepath.Join(run, LastCheckpoint))
	meta := map[string]any{"kind": model.CheckpointKind, "config": cfg, "state": map[string]int{"update": 7}}
	if err := engine.WriteTensors(f, meta, nil); err != nil {
		t.Fatal(err)
	}
	f.Close()
	e, err := Inspect(run)
	if err != nil || e == nil || e.Update != 7 {
		t.Fatalf("Inspect: %+v, %v", e, err)
	}
	now := cfg
	now.VocabHash = "0123456789abcdef"
	if d := e.Differences(Info{DataDir: data, DataKey: "k", VocabHash: now.VocabHash, Config: &now}); len(d) != 0 {
		t.Errorf("an old run with the same model and data differs: %v", d)
	}
	now.EncoderLayers = 3
	if d := e.Differences(Info{DataDir: data, Config: &now}); len(d) != 1 {
		t.Errorf("another model: differences %v, want encoder_layers", d)
	}
}
