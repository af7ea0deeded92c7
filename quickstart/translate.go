package quickstart

import (
	"context"

	"github.com/strata-nmt/strata/decode"
)

// translate decodes lines with the run's best checkpoint: beam search with
// incremental decoding, as `strata translate --model RUN` does.
func translate(runDir, srcLang, tgtLang string, lines []string, beam int) ([]string, error) {
	b, err := decode.Load(runDir, "")
	if err != nil {
		return nil, err
	}
	opt := decode.Defaults()
	// toy sentences translate to about their own length; an untrained
	// model must not run to fairseq's default 200 tokens
	opt.Beam, opt.MaxLenA, opt.MaxLenB = beam, 1.5, 10
	opt.Greedy = beam == 1
	s, err := decode.NewSearcher(b.Model, opt)
	if err != nil {
		return nil, err
	}
	return decode.NewTranslator(b, s).Translate(context.Background(), srcLang, tgtLang, lines)
}
