package zeroshot

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/analysis"
	"github.com/strata-nmt/strata/internal/sharedtest"
	"github.com/strata-nmt/strata/internal/textio"
	"github.com/strata-nmt/strata/metrics"
)

// archivedDirection is what the check reads of a matrix.json row.
type archivedDirection struct {
	Src   string  `json:"src"`
	Tgt   string  `json:"tgt"`
	BLEU  float64 `json:"bleu"`
	CHRF  float64 `json:"chrf"`
	Lines int     `json:"lines"`
	Ref   string  `json:"ref"`
	Hyp   string  `json:"hyp"`
}

// TestArchivedScoresReproduce: every direction of every archived
// evaluation (results/SYSTEM/eval/TEST/matrix.json) scores, from its kept
// outputs and the first Lines lines of its references, the BLEU (with the
// tokenizer eval-matrix uses for the target) and chrF2 it records, so every table made from the archive is recomputable from
// it. The references are looked up in this machine's shared data, wherever
// the evaluation found them.
func TestArchivedScoresReproduce(t *testing.T) {
	shared := sharedtest.Dir(t, "data/l10n/test/test.en")
	matrices, err := filepath.Glob("results/*/eval/*/matrix.json")
	if err != nil || len(matrices) == 0 {
		t.Skipf("no archived evaluation under results/ (%v)", err)
	}
	for _, path := range matrices {
		rel, _ := filepath.Rel("results", filepath.Dir(path))
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			var m struct {
				Directions []archivedDirection `json:"directions"`
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, d := range m.Directions {
				checkDirection(t, shared, filepath.Join(filepath.Dir(path), "hyp"), d)
			}
		})
	}
}

func checkDirection(t *testing.T, shared, hypDir string, d archivedDirection) {
	t.Helper()
	_, refRel, ok := strings.Cut(filepath.ToSlash(d.Ref), "/data/")
	if !ok {
		t.Fatalf("%s-%s: reference %s is not under a data directory", d.Src, d.Tgt, d.Ref)
	}
	refs, err := textio.ReadLines(filepath.Join(shared, "data", refRel))
	if err != nil {
		t.Skipf("%s-%s: %v", d.Src, d.Tgt, err)
	}
	hyps, err := textio.ReadLines(filepath.Join(hypDir, d.Hyp))
	if err != nil {
		t.Fatal(err)
	}
	if len(hyps) != d.Lines || len(refs) < d.Lines {
		t.Fatalf("%s-%s: %d outputs and %d references for %d lines", d.Src, d.Tgt, len(hyps), len(refs), d.Lines)
	}
	streams := [][]string{refs[:d.Lines]}
	bleu, err := metrics.CorpusBLEU(hyps, streams, metrics.BLEUOptions{Tokenize: analysis.BLEUTokenizer(d.Tgt)})
	if err != nil {
		t.Fatal(err)
	}
	chrf, err := metrics.CorpusCHRF(hyps, streams, metrics.CHRFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(bleu.Score-d.BLEU) > 1e-9 || math.Abs(chrf.Score-d.CHRF) > 1e-9 {
		t.Errorf("%s-%s (%s): BLEU %.4f, chrF2 %.4f recomputed; %.4f, %.4f recorded", d.Src, d.Tgt, d.Hyp,
			bleu.Score, chrf.Score, d.BLEU, d.CHRF)
	}
}
