package train

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// ValidLoss returns the mean NLL in bits per target token of m on batches
// (no dropout, no label smoothing).
func ValidLoss(m model.Model, batches []model.Batch, threads int) float64 {
	g := engine.NewInference()
	if threads > 0 {
		g.SetThreads(threads)
	}
	var nll float64
	tokens := 0
	for _, bt := range batches {
		res := model.Loss(g, m, bt, 0)
		nll += res.NLL
		tokens += res.Tokens
		g.Reset()
	}
	if tokens == 0 {
		return math.NaN()
	}
	return nll / float64(tokens) / math.Ln2
}

func (r *run) validate() error {
	if len(r.valid) == 0 {
		return nil
	}
	r.validatedAt = r.st.Update
	loss := ValidLoss(r.m, r.valid, r.opts.Threads)
	r.res.LastValid = loss
	extra := map[string]float64{}
	if r.opts.ValidHook != nil {
		vals, err := r.opts.ValidHook(r.m)
		if err != nil {
			return err
		}
		extra = vals
	}
	// As fairseq: a tie makes the newer checkpoint the best one, but only
	// a strict improvement resets patience.
	best := r.st.BestValid == 0 || loss <= r.st.BestValid
	improved := r.st.BestValid == 0 || loss < r.st.BestValid
	if best {
		r.st.BestValid = loss
	}
	if r.opts.scoreMetric() {
		v, ok := extra[r.opts.BestMetric]
		if !ok {
			return fmt.Errorf("train: best_checkpoint_metric %q is not among the validation values %v", r.opts.BestMetric, slices.Sorted(maps.Keys(extra)))
		}
		best = !r.st.HasBestScore || v >= r.st.BestScore
		improved = !r.st.HasBestScore || v > r.st.BestScore
		if best {
			r.st.BestScore, r.st.HasBestScore = v, true
		}
	}
	if improved {
		r.st.BadValid = 0
	} else {
		r.st.BadValid++
	}
	r.log.valid(r.st, loss, extra)
	if best {
		return r.saveBest()
	}
	return nil
}
