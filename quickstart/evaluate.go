package quickstart

import (
	"path/filepath"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/internal/textio"
	"github.com/strata-nmt/strata/metrics"
)

// evaluate translates the toy test set with the best checkpoint and scores
// it against the references.
func evaluate(o Options, ds *data.Dataset, runDir string) (*Result, error) {
	src, err := textio.ReadLines(filepath.Join(o.Dir, "corpus", "test."+o.Src))
	if err != nil {
		return nil, err
	}
	ref, err := textio.ReadLines(filepath.Join(o.Dir, "corpus", "test."+o.Tgt))
	if err != nil {
		return nil, err
	}
	if o.TestSentences > 0 && o.TestSentences < len(src) {
		src, ref = src[:o.TestSentences], ref[:o.TestSentences]
	}
	hyp, err := translate(runDir, o.Src, o.Tgt, src, o.Beam)
	if err != nil {
		return nil, err
	}
	bleu, err := metrics.CorpusBLEU(hyp, [][]string{ref}, metrics.BLEUOptions{})
	if err != nil {
		return nil, err
	}
	res := &Result{BLEU: bleu}
	for i := 0; i < 3 && i < len(src); i++ {
		res.Examples = append(res.Examples, [3]string{src[i], ref[i], hyp[i]})
	}
	return res, nil
}
