// Package archivetest holds what the recipes' checks of their archived
// outputs share: scoring an output file as `strata eval` prints it.
package archivetest

import (
	"fmt"
	"testing"

	"github.com/strata-nmt/strata/internal/textio"
	"github.com/strata-nmt/strata/metrics"
)

// Scores is `strata eval -m bleu,chrf,ter` of the outputs in hypFile
// against the references in refFile (SacreBLEU's defaults: 13a, cased),
// each score as printed, with two decimals.
func Scores(t testing.TB, hypFile, refFile string) (bleu, chrf, ter string) {
	t.Helper()
	hyps, err := textio.ReadLines(hypFile)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := textio.ReadLines(refFile)
	if err != nil {
		t.Fatal(err)
	}
	streams := [][]string{refs}
	b, err := metrics.CorpusBLEU(hyps, streams, metrics.BLEUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := metrics.CorpusCHRF(hyps, streams, metrics.CHRFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := metrics.CorpusTER(hyps, streams, metrics.TEROptions{})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%.2f", b.Score), fmt.Sprintf("%.2f", c.Score), fmt.Sprintf("%.2f", r.Score)
}
