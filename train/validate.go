package train

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"runtime/debug"
	"slices"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// ValidLoss returns the mean NLL in bits per target token of m on batches
// (no dropout, no label smoothing).
func ValidLoss(m model.Model, batches []model.Batch, threads int) float64 {
	nll, tokens := validSums(m, batches, 0, 1, threads)
	if tokens == 0 {
		return math.NaN()
	}
	return nll / tokens / math.Ln2
}

// validSums returns the summed NLL (nats) and target tokens of the batches
// i ≡ part (mod parts).
func validSums(m model.Model, batches []model.Batch, part, parts, threads int) (nll, tokens float64) {
	g := engine.NewInference()
	if threads > 0 {
		g.SetThreads(threads)
	}
	for i := part; i < len(batches); i += parts {
		res := model.Loss(g, m, batches[i], 0)
		nll += res.NLL
		tokens += float64(res.Tokens)
		g.Reset()
	}
	return nll, tokens
}

// validLoss is ValidLoss with the batches shared among the ranks.
func (r *run) validLoss() (float64, error) {
	nll, tokens := validSums(r.m, r.valid, r.d.comm.Rank(), r.d.comm.Size(), r.opts.Threads)
	if err := r.d.sum64(&nll, &tokens); err != nil {
		return 0, err
	}
	if tokens == 0 {
		return math.NaN(), nil
	}
	return nll / tokens / math.Ln2, nil
}

// validHook runs the validation hook on rank 0 and gives its values to
// every rank (they drive checkpoint_best and patience everywhere).
func (r *run) validHook() (map[string]float64, error) {
	if !r.d.multi() {
		return r.opts.ValidHook(r.m)
	}
	msg := struct {
		Vals map[string]float64
		Err  string
	}{}
	if r.d.root() {
		vals, err := r.opts.ValidHook(r.m)
		msg.Vals = vals
		if err != nil {
			msg.Err = err.Error()
		}
	}
	if err := r.d.bcastJSON(&msg); err != nil {
		return nil, err
	}
	if msg.Err != "" {
		return nil, fmt.Errorf("validation hook on rank 0: %s", msg.Err)
	}
	return msg.Vals, nil
}

// validate measures the validation loss (and the hook's values) and
// updates the best values and patience.
//
// Validation runs whole batches of up to --valid-max-tokens forward on a
// graph of its own, which holds every activation of a batch (3.5 GB for
// 8,192 tokens through a 36-layer MSC encoder). So that the training
// graphs' cached buffers are not held beside it, they are dropped and
// collected before it; after it, its garbage is collected and returned to
// the system, which also sets the collector's next target from the
// training's live memory again (left to the collector, the target stayed
// at twice what validation had reached and training filled it). The
// training graphs allocate their buffers again at the next step: the same
// computation on fresh memory (bit-identical checkpoints).
func (r *run) validate() error {
	if len(r.valid) == 0 {
		return nil
	}
	r.validatedAt = r.st.Update
	r.w.DropCaches()
	runtime.GC()
	loss, err := r.validLoss()
	if err != nil {
		return err
	}
	r.res.LastValid = loss
	extra := map[string]float64{}
	if r.opts.ValidHook != nil {
		vals, err := r.validHook()
		if err != nil {
			return err
		}
		extra = vals
	}
	debug.FreeOSMemory()
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
