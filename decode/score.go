package decode

import (
	"fmt"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// Scored is the teacher-forced score of one given output.
type Scored struct {
	// LogProb is Σ log p(y_t | y_<t, x) over the output tokens (EOS
	// included, the forced prefix excluded).
	LogProb float64
	// NLL holds each output token's negative log-probability.
	NLL []float32
}

// Tokens is the number of scored tokens.
func (s Scored) Tokens() int { return len(s.NLL) }

// Score runs the model with teacher forcing over given outputs: srcs are
// encoder inputs, tgts the tokens after the forced prefix, EOS last (as a
// Hypothesis holds them). It is what beam search would have summed for the
// same tokens, without search-time penalties.
func Score(g *engine.Graph, m model.Model, srcs [][]int32, prefix []int32, tgts [][]int32) ([]Scored, error) {
	if len(srcs) != len(tgts) {
		return nil, fmt.Errorf("decode.Score: %d sources and %d outputs", len(srcs), len(tgts))
	}
	if len(srcs) == 0 {
		return nil, nil
	}
	pad := int32(m.Config().PadID)
	b, s, t := len(srcs), 0, 0
	for i := range srcs {
		if len(tgts[i]) == 0 {
			return nil, fmt.Errorf("decode.Score: output %d is empty (it ends with EOS at least)", i)
		}
		s = max(s, len(srcs[i]))
		t = max(t, len(prefix)+len(tgts[i])-1)
	}
	src := padded(srcs, nil, b, s, pad)
	in := make([][]int32, b)
	for i, y := range tgts {
		in[i] = append(append([]int32{}, prefix...), y[:len(y)-1]...)
	}
	tgtIn := padded(in, nil, b, t, pad)
	enc := m.Encode(g, src, b, s, model.Collect{})
	lp := g.LogSoftmax(m.Decode(g, enc, tgtIn, t, model.Collect{}).Logits)
	v := lp.Cols()
	out := make([]Scored, b)
	for i, y := range tgts {
		sc := Scored{NLL: make([]float32, len(y))}
		for j, tok := range y {
			x := lp.Data[(i*t+len(prefix)-1+j)*v+int(tok)]
			sc.NLL[j] = -x
			sc.LogProb += float64(x)
		}
		out[i] = sc
	}
	return out, nil
}

// padded right-pads rows to width w into dst (allocated when nil).
func padded(rows [][]int32, dst []int32, b, w int, pad int32) []int32 {
	if dst == nil {
		dst = make([]int32, b*w)
	}
	for i, r := range rows {
		copy(dst[i*w:], r)
		for j := len(r); j < w; j++ {
			dst[i*w+j] = pad
		}
	}
	return dst
}
