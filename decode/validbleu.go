package decode

import (
	"fmt"
	"sort"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/metrics"
	"github.com/strata-nmt/strata/model"
)

// ValidBLEU is the trainer's --eval-bleu hook (train.Options.ValidHook):
// greedy decoding of a split (at most limit sentences), detokenised, scored
// with SacreBLEU-exact BLEU (13a; zh for Chinese targets) against the
// split's own targets.
type ValidBLEU struct {
	ds     *data.Dataset
	srcs   map[string][][]int32 // by target language
	refs   map[string][]string
	limit  int
	maxLen int
}

// NewValidBLEU prepares the hook for a split of ds.
func NewValidBLEU(ds *data.Dataset, split string, limit int) (*ValidBLEU, error) {
	b, err := ds.NewBatcher(split, data.BatcherOptions{MaxTokens: 1 << 20, Fixed: true})
	if err != nil {
		return nil, err
	}
	v := &ValidBLEU{ds: ds, srcs: map[string][][]int32{}, refs: map[string][]string{}, limit: limit}
	langs := ds.Vocab.Languages()
	n := 0
	for _, idx := range b.Plan(1) {
		bt := b.Make(idx)
		for r := 0; r < bt.B && n < limit; r++ {
			lang := langs[bt.TgtLang[r]]
			v.srcs[lang] = append(v.srcs[lang], unpad(bt.Src[r*bt.S:(r+1)*bt.S]))
			v.refs[lang] = append(v.refs[lang], ds.Vocab.Decode(bt.TgtOut[r*bt.T:(r+1)*bt.T]))
			n++
		}
	}
	return v, nil
}

func unpad(row []int32) []int32 {
	out := make([]int32, 0, len(row))
	for _, id := range row {
		if id != data.PadID {
			out = append(out, id)
		}
	}
	return out
}

// Hook decodes and scores; it returns the BLEU of each target language
// ("bleu_de", ...) and their mean ("bleu").
func (v *ValidBLEU) Hook(m model.Model) (map[string]float64, error) {
	opt := Defaults()
	opt.Greedy, opt.Beam, opt.MaxLenA, opt.MaxLenB = true, 1, 1.5, 10
	s, err := NewSearcher(m, opt)
	if err != nil {
		return nil, err
	}
	langs := make([]string, 0, len(v.srcs))
	for l := range v.srcs {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	out := map[string]float64{}
	var sum float64
	for _, lang := range langs {
		prefix, err := v.ds.Sequencer().DecoderPrefix(lang)
		if err != nil {
			return nil, err
		}
		var hyps []string
		for lo := 0; lo < len(v.srcs[lang]); lo += 64 {
			batch := v.srcs[lang][lo:min(lo+64, len(v.srcs[lang]))]
			for _, h := range s.Search(batch, prefix) {
				hyps = append(hyps, v.ds.Vocab.Decode(h[0].Tokens))
			}
		}
		opts := metrics.BLEUOptions{}
		if lang == "zh" {
			opts.Tokenize = "zh"
		}
		sc, err := metrics.CorpusBLEU(hyps, [][]string{v.refs[lang]}, opts)
		if err != nil {
			return nil, fmt.Errorf("validation BLEU (%s): %w", lang, err)
		}
		out["bleu_"+lang] = sc.Score
		sum += sc.Score
	}
	out["bleu"] = sum / float64(len(langs))
	return out, nil
}
