package analysis

import (
	"context"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
)

// Generator produces a model's output for an inference batch: for each row
// the generated token ids after the forced decoder prefix, without the
// final </s>.
type Generator func(ctx context.Context, b *data.InferenceBatch) ([][]int32, error)

// SearchGenerator generates with a decode.Searcher (greedy or beam; the
// best hypothesis of each sentence).
func SearchGenerator(s *decode.Searcher) Generator {
	return func(ctx context.Context, b *data.InferenceBatch) ([][]int32, error) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		srcs := make([][]int32, b.B)
		for r := range srcs {
			srcs[r] = trimPad(b.Src[r*b.S : (r+1)*b.S])
		}
		out := make([][]int32, b.B)
		for r, hyps := range s.Search(srcs, b.Prefix) {
			if len(hyps) == 0 {
				continue // every continuation blocked: empty output
			}
			h := hyps[0].Tokens
			if n := len(h); n > 0 && h[n-1] == data.EOSID {
				h = h[:n-1]
			}
			out[r] = h
		}
		return out, nil
	}
}

// trimPad returns a copy of a right-padded row without its padding.
func trimPad(row []int32) []int32 {
	n := len(row)
	for n > 0 && row[n-1] == data.PadID {
		n--
	}
	return append([]int32(nil), row[:n]...)
}
