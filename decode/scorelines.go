package decode

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/engine"
)

// ScoreLines scores references given sources by teacher forcing, in
// batches of similar length; result i belongs to pair i. An empty
// reference scores its EOS alone. The target tag forced under S-ENC-T-DEC
// is not scored (it is not predicted at inference either).
func (t *Translator) ScoreLines(srcs, refs []string, src, tgt string) ([]Scored, error) {
	if len(srcs) != len(refs) {
		return nil, fmt.Errorf("%d source lines but %d references", len(srcs), len(refs))
	}
	prefix, err := t.directionPrefix(src, tgt)
	if err != nil {
		return nil, err
	}
	enc := t.B.Vocab.NewEncoder()
	xs, ys := make([][]int32, len(srcs)), make([][]int32, len(srcs))
	for i := range srcs {
		if xs[i], err = t.B.Seq.EncoderInput(nil, enc.Encode(nil, srcs[i]), src, tgt); err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		if n := t.SrcLimit(); len(xs[i]) > n {
			xs[i] = truncateSource(xs[i], n) // as Lines would translate it
		}
		ys[i] = append(enc.Encode(nil, refs[i]), data.EOSID)
		if len(ys[i]) > HardMaxSrcLen {
			return nil, fmt.Errorf("line %d: the reference has %d tokens; scoring takes at most %d (its memory grows with the length)", i+1, len(ys[i]), HardMaxSrcLen)
		}
	}
	order := make([]int, len(srcs))
	for i := range order {
		order[i] = i
	}
	cost := func(i int) int { return max(len(xs[i]), len(ys[i])) }
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost(b), cost(a)) })
	out := make([]Scored, len(srcs))
	g := engine.NewInference()
	for start := 0; start < len(order); {
		end := t.batchEnd(order, xs, start)
		idx := order[start:end]
		bx, by := make([][]int32, len(idx)), make([][]int32, len(idx))
		for k, i := range idx {
			bx[k], by[k] = xs[i], ys[i]
		}
		g.Reset()
		sc, err := Score(g, t.B.Model, bx, prefix, by)
		if err != nil {
			return nil, err
		}
		for k, i := range idx {
			out[i] = sc[k]
		}
		start = end
	}
	return out, nil
}
