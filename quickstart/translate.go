package quickstart

import (
	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// translate decodes greedily by recomputing the decoder over the prefix at
// every step. TODO(decode): use the decode package's incremental beam
// search once it lands.
func translate(m model.Model, ds *data.Dataset, srcLang, tgtLang string, lines []string) ([]string, error) {
	batches, err := data.InferenceBatches(ds.Sequencer(), srcLang, tgtLang, lines, 4096, 128)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(lines))
	g := engine.NewInference()
	for _, bt := range batches {
		enc := m.Encode(g, bt.Src, bt.B, bt.S, model.Collect{})
		rows := make([][]int32, bt.B)
		for r := range rows {
			rows[r] = append([]int32{data.EOSID}, bt.Prefix...)
		}
		done := make([]bool, bt.B)
		maxLen := 2*bt.S + 10
		for step := 0; step < maxLen; step++ {
			t := len(rows[0])
			in := make([]int32, 0, bt.B*t)
			for _, r := range rows {
				in = append(in, r...)
			}
			logits := m.Decode(g, enc, in, t, model.Collect{}).Logits
			v := logits.Cols()
			all := true
			for r := range rows {
				next := int32(data.PadID)
				if !done[r] {
					row := logits.Data[(r*t+t-1)*v : (r*t+t)*v]
					best := 0
					for j := range row {
						if row[j] > row[best] {
							best = j
						}
					}
					next = int32(best)
					done[r] = next == data.EOSID
				}
				rows[r] = append(rows[r], next)
				all = all && done[r]
			}
			if all {
				break
			}
		}
		for r, idx := range bt.Index {
			ids := rows[r][1+len(bt.Prefix):]
			for k, id := range ids {
				if id == data.EOSID || id == data.PadID {
					ids = ids[:k]
					break
				}
			}
			out[idx] = ds.Vocab.Decode(ids)
		}
		g.Reset()
	}
	return out, nil
}
