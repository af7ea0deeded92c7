package quickstart

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/metrics"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/train"
)

// evaluate translates the toy test set with the best checkpoint and scores
// it against the references.
func evaluate(o Options, ds *data.Dataset, runDir string) (*Result, error) {
	path, err := train.BestModelPath(runDir)
	if err != nil {
		return nil, err
	}
	m, err := model.Load(path)
	if err != nil {
		return nil, err
	}
	src, err := readLines(filepath.Join(o.Dir, "corpus", "test."+o.Src))
	if err != nil {
		return nil, err
	}
	ref, err := readLines(filepath.Join(o.Dir, "corpus", "test."+o.Tgt))
	if err != nil {
		return nil, err
	}
	hyp, err := translate(m, ds, o.Src, o.Tgt, src)
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

func readLines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n"), nil
}
