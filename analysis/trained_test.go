package analysis

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/data"
)

// For a model trained en→de only, eval-matrix over an en/de test set scores
// en→de as supervised and leaves out de→en, which it cannot translate;
// for a model trained en↔de and en↔fr, de→fr is zero-shot.
func TestMatrixKindsFollowTrainedDirections(t *testing.T) {
	dir := t.TempDir()
	writeNWay(t, dir, "test", sentences(20, 9))
	ts, err := ReadTestSet(dir, []string{"en", "de", "fr"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	bilingual, _ := data.ParseDirections([]string{"en-de"})
	var log strings.Builder
	or := &oracle{ts: ts}
	res, err := EvalMatrix(context.Background(), or, ts, MatrixOptions{Pivot: "en", Detector: lexDetector{},
		HypDir: filepath.Join(dir, "hyp1"), Trained: bilingual, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range res.Directions {
		got = append(got, d.String()+":"+d.Kind)
	}
	if strings.Join(got, " ") != "en-de:supervised" || res.Supervised.Directions != 1 {
		t.Errorf("directions %v, supervised %d; want en-de alone, supervised", got, res.Supervised.Directions)
	}
	if !strings.Contains(log.String(), "de-en: left out") {
		t.Errorf("log does not say de-en was left out:\n%s", log.String())
	}
	multi, _ := data.ParseDirections([]string{"en-de", "de-en", "en-fr", "fr-en"})
	res, err = EvalMatrix(context.Background(), &oracle{ts: ts}, ts, MatrixOptions{Pivot: "en", Detector: lexDetector{},
		HypDir: filepath.Join(dir, "hyp2"), Trained: multi, NoPivot: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Supervised.Directions != 4 || res.ZeroShot.Directions != 2 {
		t.Errorf("supervised %d zero-shot %d, want 4 and 2", res.Supervised.Directions, res.ZeroShot.Directions)
	}
}
