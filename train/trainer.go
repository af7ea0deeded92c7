package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/engine/blas"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/optim"
	"github.com/strata-nmt/strata/rundir"
)

// Result summarises a finished (or stopped) run.
type Result struct {
	Updates    int
	Epochs     int
	BestValid  float64 // bits per token
	LastValid  float64
	Stopped    string // why training ended
	TokensPerS float64
	// UpdateLoss is the training loss (bits per token) of every update
	// this invocation ran, for tests and plots.
	UpdateLoss []float64
	// CommSeconds is the time spent all-reducing gradients (0 when
	// training alone).
	CommSeconds float64
}

// ErrDiverged is returned when too many updates in a row were non-finite.
var ErrDiverged = errors.New("training diverged")

type run struct {
	opts  Options
	m     model.Model
	w     *Workers
	g     *engine.Graph // worker 0's: the run's dropout RNG state
	adam  *optim.Adam
	sched Schedule
	src   Source
	valid []model.Batch
	st    State
	log   *logger
	res   Result
	bad   int
	// validatedAt is the update of the last validation in this invocation
	// (-1: none yet).
	validatedAt int
	// savedAt is the update of the last checkpoint of this invocation (-1:
	// none yet).
	savedAt int
	// savedTime is when this invocation last wrote a checkpoint (its start
	// before the first), for SaveTime
	savedTime time.Time
	d         *dist
}

// Run trains a new model (or, with opts.Resume, continues the run in
// opts.SaveDir) on src, validating on valid. ctx cancellation (SIGINT)
// saves a checkpoint and returns cleanly.
func Run(ctx context.Context, opts Options, src Source, valid []model.Batch) (*Result, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	m, err := model.New(opts.Model, opts.Seed)
	if err != nil {
		return nil, err
	}
	return RunModel(ctx, opts, m, src, valid)
}

// RunModel is Run with a model built by the caller (opts.Model describes
// it).
func RunModel(ctx context.Context, opts Options, m model.Model, src Source, valid []model.Batch) (*Result, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	d := newDist(opts.Comm)
	if !d.root() {
		// rank 0 alone reports progress and writes the run directory
		opts.Log, opts.LogIsTerminal = nil, false
	} else if err := os.MkdirAll(opts.SaveDir, 0o755); err != nil {
		return nil, err
	}
	adam, err := optim.NewAdam(m.Params().List(), opts.Adam)
	if err != nil {
		return nil, err
	}
	sched, err := opts.schedule()
	if err != nil {
		return nil, err
	}
	threads := opts.threads()
	adam.Threads = threads
	w := NewWorkers(m, opts.workers(), threads, opts.Seed)
	w.SetMicroBatches(opts.MicroBatches)
	r := &run{opts: opts, m: m, w: w, g: w.Graph(), adam: adam, src: src, valid: valid,
		sched: sched, st: State{Epoch: 1}, validatedAt: -1, savedAt: -1, savedTime: time.Now(), d: d}
	resumed, err := r.start()
	if err != nil {
		return nil, err
	}
	if resumed {
		r.logf("resumed from %s at update %d (epoch %d, batch %d)", rundir.LastCheckpoint, r.st.Update, r.st.Epoch, r.st.BatchIndex)
	}
	if r.log, err = newLogger(r.opts, r.st.Update, d.root()); err != nil {
		return nil, err
	}
	defer r.log.close()
	r.logf("model: %s, %d parameters", m.Config().Summary(), m.Params().Count())
	// the kernels of this piece: a run resumed on another machine (or with
	// STRATA_SGEMM) continues within rounding, not bit for bit, and the log
	// says where that happened
	r.logf("compute: matmul %s; f32 kernel %s; weight gradients %s", blas.Default().Name(), engine.F32Kernel(), engine.GradWKernel())
	if w.N() > 1 {
		r.logf("batch shards: %d in-process workers, each on its share of every batch's sentences with %d of the %d kernel thread(s)", w.N(), w.graphs[0].Threads(), threads)
	}
	if d.multi() {
		r.logf("%s", r.effectiveBatch())
	}
	err = r.loop(ctx)
	r.res.Updates, r.res.Epochs, r.res.BestValid = r.st.Update, r.st.Epoch, r.st.BestValid
	r.res.CommSeconds = d.commTime.Seconds()
	return &r.res, err
}

func (r *run) logf(format string, args ...any) {
	if r.log != nil {
		r.log.line(fmt.Sprintf(format, args...))
	} else if r.opts.Log != nil {
		fmt.Fprintf(r.opts.Log, format+"\n", args...)
	}
}

// done returns why training stops now, as a stop reason (rundir.Stop*)
// and in words; an empty reason means it goes on.
func (r *run) done(start time.Time) (reason, why string) {
	o := r.opts
	switch {
	case o.MaxTime > 0 && time.Since(start) >= o.MaxTime:
		return rundir.StopTimeLimit, fmt.Sprintf("reached the time limit of %s", o.MaxTime)
	case o.MaxUpdate > 0 && r.st.Update >= o.MaxUpdate:
		return rundir.StopMaxUpdate, fmt.Sprintf("reached max_update %d", o.MaxUpdate)
	case o.MaxEpoch > 0 && r.st.Epoch > o.MaxEpoch:
		return rundir.StopMaxEpoch, fmt.Sprintf("reached max_epoch %d", o.MaxEpoch)
	case o.Patience > 0 && r.st.BadValid >= o.Patience:
		what := "validation loss"
		if o.scoreMetric() {
			what = "validation " + o.BestMetric
		}
		return rundir.StopPatience, fmt.Sprintf("%s did not improve for %d validations", what, o.Patience)
	}
	return "", ""
}

func (r *run) loop(ctx context.Context) error {
	start, startUpdates := time.Now(), r.st.Update
	var tokens int
	defer func() {
		if sec := time.Since(start).Seconds(); sec > 0 {
			r.res.TokensPerS = float64(tokens) / sec
		}
	}()
	for {
		reason, why := r.done(start)
		stop := reason != ""
		interrupted := ctx.Err() != nil || (r.opts.StopAfter > 0 && r.st.Update-startUpdates >= r.opts.StopAfter)
		if r.d.multi() {
			// the ranks stop together: a time limit or a signal may reach
			// one rank an update before another
			var err error
			if stop, interrupted, err = r.agreeStop(stop, interrupted); err != nil {
				return err
			}
			if stop && why == "" {
				reason, why = rundir.StopTimeLimit, fmt.Sprintf("reached the time limit of %s", r.opts.MaxTime)
			}
		}
		if stop {
			r.res.Stopped = why
			r.logf("done: %s", why)
			if err := r.finish(); err != nil {
				return err
			}
			return r.log.stop(r.st, reason, why)
		}
		if interrupted {
			r.res.Stopped = "interrupted"
			r.logf("interrupted at update %d: saving checkpoint", r.st.Update)
			if err := r.saveCheckpoint(); err != nil {
				return err
			}
			return r.log.stop(r.st, rundir.StopInterrupted, fmt.Sprintf("interrupted at update %d", r.st.Update))
		}
		n, batch := r.src.Epoch(r.st.Epoch)
		if r.st.BatchIndex >= n {
			if err := r.endEpoch(); err != nil {
				return err
			}
			continue
		}
		size := min(r.opts.UpdateFreq*r.d.comm.Size(), n-r.st.BatchIndex)
		lo, hi := r.d.share(r.st.BatchIndex, size, r.opts.UpdateFreq)
		group := make([]model.Batch, 0, hi-lo)
		for i := lo; i < hi; i++ {
			group = append(group, batch(i))
		}
		ntok, err := r.step(group, lo, size)
		if err != nil {
			return err
		}
		tokens += ntok
		if err := r.afterUpdate(); err != nil {
			return err
		}
	}
}

// step runs forward/backward over this rank's batches of an update (the
// batches first, first+1, ... of the epoch; the update's global group has
// size batches) and one optimiser update; it returns the number of target
// tokens of the whole update.
func (r *run) step(group []model.Batch, first, size int) (int, error) {
	// Sums over this process's workers, then over the ranks, and only
	// then normalised: the same update for any split of the batches.
	r.w.ZeroGrad()
	var loss, nll float64
	tokens := 0
	for j, bt := range group {
		r.dropoutStream(first + j)
		l, n, t := r.w.Backward(bt, r.opts.LabelSmoothing, 1)
		loss, nll, tokens = loss+l, nll+n, tokens+t
	}
	r.w.Reduce()
	r.st.BatchIndex += size
	ftok := float64(tokens)
	if err := r.d.sum64(&loss, &nll, &ftok); err != nil {
		return 0, err
	}
	if tokens = int(ftok); tokens == 0 {
		return 0, nil
	}
	commBefore := r.d.commTime
	if err := r.d.reduceGrads(r.m.Params().List()); err != nil {
		return 0, err
	}
	// fairseq normalises the summed gradient by the number of target tokens
	scaleGrads(r.m.Params(), 1/float64(tokens))
	norm := r.m.Params().GradNorm()
	lossBits := loss / float64(tokens) / math.Ln2
	if math.IsNaN(norm) || math.IsInf(norm, 0) || math.IsNaN(lossBits) || math.IsInf(lossBits, 0) {
		r.bad++
		r.logf("update %d: non-finite loss or gradient (loss %v, grad norm %v): update skipped (%d in a row)",
			r.st.Update+1, lossBits, norm, r.bad)
		if r.bad >= r.opts.MaxBadUpdates {
			return 0, fmt.Errorf("%w: %d non-finite updates in a row at update %d; lower the learning rate or add warm-up", ErrDiverged, r.bad, r.st.Update)
		}
		return tokens, nil
	}
	r.bad = 0
	var layerNorms, sharedNorms map[string]float64
	if r.opts.LogGradNorms {
		layerNorms, sharedNorms = LayerGradNorms(r.m.Params())
	}
	if r.opts.ClipNorm > 0 && norm > r.opts.ClipNorm {
		scaleGrads(r.m.Params(), r.opts.ClipNorm/norm)
	}
	lr := r.sched.LR(r.st.Update)
	r.adam.Update(lr)
	r.st.Update++
	r.res.UpdateLoss = append(r.res.UpdateLoss, lossBits)
	r.log.update(r.st, updateStats{loss: lossBits, nll: nll / float64(tokens) / math.Ln2, lr: lr, gnorm: norm,
		tokens: tokens, layerNorms: layerNorms, sharedNorms: sharedNorms, comm: r.d.commTime - commBefore, ranks: r.d.comm.Size()})
	return tokens, nil
}

// dropoutStream starts batch i of the epoch's dropout masks at a counter
// that depends on (epoch, i) alone, so a batch gets the same masks whichever
// rank trains it and wherever it falls in an update's group. Each batch has
// 2^16 dropout ops of room, far more than any model draws.
func (r *run) dropoutStream(i int) {
	seed, _ := r.g.RNGState()
	r.g.SetRNGState(seed, uint64(r.st.Epoch)<<40|uint64(i)<<16)
}

func scaleGrads(p *engine.Params, s float64) {
	f := float32(s)
	for _, t := range p.List() {
		for i := range t.Grad {
			t.Grad[i] *= f
		}
	}
}

func (r *run) afterUpdate() error {
	o := r.opts
	if o.ValidInterval > 0 && r.st.Update%o.ValidInterval == 0 {
		if err := r.validate(); err != nil {
			return err
		}
	}
	if o.SaveInterval > 0 && r.st.Update%o.SaveInterval == 0 {
		return r.saveCheckpoint()
	}
	if o.SaveTime > 0 {
		// the ranks agree: their clocks may cross the interval an update apart
		due, err := r.d.any(time.Since(r.savedTime) >= o.SaveTime)
		if err != nil || !due {
			return err
		}
		return r.saveLast()
	}
	return nil
}

func (r *run) endEpoch() error {
	r.logf("end of epoch %d (%d updates)", r.st.Epoch, r.st.Update)
	if r.opts.ValidInterval == 0 {
		if err := r.validate(); err != nil {
			return err
		}
	}
	r.st.Epoch++
	r.st.BatchIndex = 0
	if r.opts.SaveInterval == 0 {
		return r.saveCheckpoint()
	}
	return nil
}

// finish validates the final parameters (unless that just happened) and
// writes the final checkpoint.
func (r *run) finish() error {
	if r.validatedAt != r.st.Update {
		if err := r.validate(); err != nil {
			return err
		}
	}
	return r.saveCheckpoint()
}
