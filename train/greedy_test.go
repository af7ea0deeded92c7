package train

import (
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// greedy decodes one sentence by full recomputation (the decode package has
// the real, incremental search; this keeps the trainer's tests self-contained).
func greedy(m model.Model, src []int32, maxLen int) []int32 {
	g := engine.NewInference()
	s := append(append([]int32{}, src...), 2)
	enc := m.Encode(g, s, 1, len(s), model.Collect{})
	out := []int32{1}
	for len(out) <= maxLen {
		logits := m.Decode(g, enc, out, len(out), model.Collect{}).Logits
		v := logits.Cols()
		row := logits.Data[(len(out)-1)*v : len(out)*v]
		best := 0
		for j := range row {
			if row[j] > row[best] {
				best = j
			}
		}
		if best == 2 {
			break
		}
		out = append(out, int32(best))
	}
	return out[1:]
}
