package quickstart

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/strata-nmt/strata/rundir"
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
	res2, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	// the second run starts afresh: no checkpoint of the first is left
	ups, err := rundir.Numbered(filepath.Join(o.Dir, "run"))
	if err != nil || len(ups) == 0 || ups[len(ups)-1] != res2.Updates {
		t.Errorf("numbered checkpoints after the second run: %v (%v), want the last at its update %d", ups, err, res2.Updates)
	}
	after, _ := os.Stat(filepath.Join(o.Dir, "data", "manifest.json"))
	if !before.ModTime().Equal(after.ModTime()) {
		t.Error("a second run must reuse the prepared data directory")
	}
}
