package quickstart

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The whole pipeline on a tiny budget: every stage runs, files land where
// the report says, and a second run reuses the corpus and data directory.
func TestQuickstartPipeline(t *testing.T) {
	o := Defaults()
	o.Dir, o.Train, o.Sentences, o.TestSentences, o.Beam = t.TempDir(), 3*time.Second, 2000, 40, 2
	var log bytes.Buffer
	o.Log = &log
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if res.Updates == 0 || len(res.Examples) != 3 || res.BLEU.SysLen == 0 {
		t.Fatalf("result %+v", res)
	}
	for _, p := range []string{"corpus/train.qaa", "data/manifest.json", "run/checkpoint_best.bin", "run/run.json"} {
		if _, err := os.Stat(filepath.Join(o.Dir, p)); err != nil {
			t.Errorf("missing %s", p)
		}
	}
	before, _ := os.Stat(filepath.Join(o.Dir, "data", "manifest.json"))
	o.Train = time.Second
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(filepath.Join(o.Dir, "data", "manifest.json"))
	if !before.ModTime().Equal(after.ModTime()) {
		t.Error("a second run must reuse the prepared data directory")
	}
}
