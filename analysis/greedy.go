package analysis

import (
	"context"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// Greedy returns a batched greedy Generator that recomputes the decoder
// over the whole prefix at every step (quadratic in the output length).
// It needs nothing but the Model interface, so tests and tiny models can
// use it; real evaluations use the decode package's incremental search.
// Outputs stop at </s> or after 2·S+10 tokens (S: the batch's source
// length), or maxLen tokens when maxLen > 0 is smaller.
func Greedy(m model.Model, threads, maxLen int) Generator {
	return func(ctx context.Context, b *data.InferenceBatch) ([][]int32, error) {
		ge, gd := engine.NewInference(), engine.NewInference()
		if threads > 0 {
			ge.SetThreads(threads)
			gd.SetThreads(threads)
		}
		enc := m.Encode(ge, b.Src, b.B, b.S, model.Collect{})
		p := len(b.Prefix)
		rows := make([][]int32, b.B)
		done := make([]bool, b.B)
		for r := range rows {
			rows[r] = append([]int32(nil), b.Prefix...)
		}
		limit := 2*b.S + 10
		if maxLen > 0 {
			limit = min(limit, maxLen)
		}
		left := b.B
		for step := 0; step < limit && left > 0; step++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t := p + step
			in := make([]int32, 0, b.B*t)
			for _, r := range rows {
				in = append(in, r...)
			}
			logits := m.Decode(gd, enc, in, t, model.Collect{}).Logits
			v := logits.Cols()
			for r := range rows {
				next := int32(data.PadID)
				if !done[r] {
					off := (r*t + t - 1) * v
					next = greedyPick(logits.Data[off : off+v])
					if next == data.EOSID {
						done[r] = true
						left--
						next = data.PadID
					}
				}
				rows[r] = append(rows[r], next)
			}
			gd.Reset()
		}
		out := make([][]int32, b.B)
		for r, row := range rows {
			h := row[p:]
			for len(h) > 0 && h[len(h)-1] == data.PadID {
				h = h[:len(h)-1]
			}
			out[r] = h
		}
		return out, nil
	}
}

// greedyPick is the arg-max over tokens a translation may contain: <pad>
// and <s> are never generated (as fairseq, which sets pad to -inf).
func greedyPick(row []float32) int32 {
	best := -1
	for j, x := range row {
		if j == data.PadID || j == data.BOSID {
			continue
		}
		if best < 0 || x > row[best] {
			best = j
		}
	}
	return int32(best)
}
