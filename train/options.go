// Package train runs training: Adam (package optim) with an inverse-sqrt
// warm-up schedule, label-smoothed cross-entropy, gradient accumulation and
// clipping, validation, early stopping, atomic checkpoints and exact
// resumption.
package train

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/strata-nmt/strata/engine/mpi"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/optim"
)

// Options configure a run. Zero values mean the defaults of Defaults().
type Options struct {
	Model model.Config `yaml:"model"`
	Seed  uint64       `yaml:"seed"`

	LR            float64 `yaml:"lr"`
	WarmupUpdates int     `yaml:"warmup_updates"`
	WarmupInitLR  float64 `yaml:"warmup_init_lr"`
	// LRScheduler names the decay after warm-up (NewSchedule; empty:
	// inverse_sqrt); MinLR is where cosine and polynomial_decay end.
	LRScheduler    string           `yaml:"lr_scheduler"`
	MinLR          float64          `yaml:"min_lr"`
	Adam           optim.AdamConfig `yaml:"-"`
	ClipNorm       float64          `yaml:"clip_norm"`
	LabelSmoothing float32          `yaml:"label_smoothing"`
	UpdateFreq     int              `yaml:"update_freq"`

	MaxUpdate int `yaml:"max_update"`
	MaxEpoch  int `yaml:"max_epoch"`
	// MaxTime stops training (cleanly, with a final checkpoint) once this
	// much wall time has passed in this invocation (fairseq's --stop-time).
	MaxTime time.Duration `yaml:"max_time"`
	// ValidInterval: validate every this many updates (0: at each epoch end).
	ValidInterval int `yaml:"validate_interval_updates"`
	// SaveInterval: checkpoint every this many updates (0: at each epoch end).
	SaveInterval int `yaml:"save_interval_updates"`
	KeepLast     int `yaml:"keep_last"`
	// SaveTime also writes checkpoint_last.bin (only) when this much wall
	// time has passed since the last checkpoint (0: off): a crash or an
	// out-of-memory kill then loses at most that much of a slow run's
	// training, whatever its save interval in updates.
	SaveTime time.Duration `yaml:"save_interval_time"`
	// Patience: stop after this many validations without improvement (0: off).
	Patience int `yaml:"patience"`
	// BestMetric picks checkpoint_best and drives patience: "nll" (or
	// empty), the dev NLL, lower is better; otherwise a value the
	// ValidHook returns ("bleu"), higher is better.
	BestMetric string `yaml:"best_checkpoint_metric"`
	// MaxBadUpdates: stop after this many non-finite updates in a row.
	MaxBadUpdates int `yaml:"max_bad_updates"`

	SaveDir string `yaml:"save_dir"`
	Resume  bool   `yaml:"-"`
	// ResumeChanges name the settings changed since the run last trained
	// ("--lr 0.001 → 0.0005"); the resume record lists them.
	ResumeChanges []string `yaml:"-"`
	LogInterval   int      `yaml:"log_interval"`
	LogGradNorms  bool     `yaml:"log_grad_norms"`
	// Threads is the number of kernel threads (0: GOMAXPROCS).
	Threads int `yaml:"threads"`
	// Workers splits every batch by sentences into this many shards
	// trained at once by in-process workers, each with Threads/Workers
	// kernel threads (workers.go; strata train --batch-shards; 0: the
	// default, DefaultWorkers).
	Workers int `yaml:"batch_shards"`
	// MicroBatches runs each worker's shard as this many pieces one after
	// another (Workers.SetMicroBatches): the same update with about 1/N of
	// the activation memory (0 or 1: the shard at once).
	MicroBatches int `yaml:"micro_batches"`

	// Log receives progress; nil means discard. When LogIsTerminal is
	// true a live status line is redrawn in place.
	Log           io.Writer `yaml:"-"`
	LogIsTerminal bool      `yaml:"-"`
	// LogWidth gives the terminal's width in columns, which the live line
	// is fitted into (nil or 0: unknown, not fitted). It is asked at each
	// redraw, so a terminal resized during a long training still fits.
	LogWidth func() int `yaml:"-"`
	// StopAfter, when > 0, stops (as if interrupted) after this many
	// updates of this invocation; tests use it to simulate a crash.
	StopAfter int `yaml:"-"`
	// Comm is the MPI communicator of a data-parallel run (nil: this
	// process trains alone). See docs/distributed.md.
	Comm mpi.Comm `yaml:"-"`
	// BatchTokens is the --max-tokens bound of one batch; only the log's
	// statement of the effective batch uses it (0: not stated).
	BatchTokens int `yaml:"-"`
	// ValidHook, if set, runs after each validation (e.g. greedy BLEU on a
	// dev set) and its named values are logged.
	ValidHook func(m model.Model) (map[string]float64, error) `yaml:"-"`
}

// Defaults returns fairseq-like defaults for a Transformer.
func Defaults() Options {
	return Options{
		Seed: 1, LR: 5e-4, WarmupUpdates: 4000, ClipNorm: 0, LabelSmoothing: 0.1, UpdateFreq: 1,
		Adam:     optim.AdamConfig{Beta1: 0.9, Beta2: 0.98, Eps: 1e-8},
		MaxEpoch: 0, MaxUpdate: 0, KeepLast: 5, MaxBadUpdates: 10, LogInterval: 100,
	}
}

func (o *Options) validate() error {
	switch {
	case o.SaveDir == "":
		return fmt.Errorf("train: save_dir is required")
	case o.MaxUpdate <= 0 && o.MaxEpoch <= 0 && o.MaxTime <= 0:
		return fmt.Errorf("train: set max_update, max_epoch or a time limit (otherwise training never ends)")
	case o.Workers < 0:
		return fmt.Errorf("train: batch_shards must be ≥ 0 (0: one per thread)")
	case o.UpdateFreq < 1:
		return fmt.Errorf("train: update_freq must be ≥ 1")
	case o.LR <= 0:
		return fmt.Errorf("train: lr must be positive")
	case o.LabelSmoothing < 0 || o.LabelSmoothing >= 1:
		return fmt.Errorf("train: label_smoothing must be in [0, 1)")
	}
	if o.scoreMetric() && o.ValidHook == nil {
		return fmt.Errorf("train: best_checkpoint_metric %q is a validation score, but no validation hook computes scores (strata train: --eval-bleu)", o.BestMetric)
	}
	if _, err := o.schedule(); err != nil {
		return err
	}
	return o.Model.Validate()
}

// schedule builds the learning-rate schedule the options describe.
func (o *Options) schedule() (Schedule, error) {
	return NewSchedule(o.LRScheduler, o.LR, o.WarmupInitLR, o.WarmupUpdates, o.MaxUpdate, o.MinLR)
}

// scoreMetric reports whether the best checkpoint follows a validation
// score (higher is better) rather than the dev NLL.
func (o *Options) scoreMetric() bool { return o.BestMetric != "" && o.BestMetric != "nll" }

// threads is the kernel thread count the options ask for.
func (o *Options) threads() int {
	if o.Threads > 0 {
		return o.Threads
	}
	return runtime.GOMAXPROCS(0)
}

// workers is the number of in-process workers: Workers, or by default one
// per kernel thread (docs/performance.md, "Training workers").
func (o *Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return DefaultWorkers(o.threads())
}

// DefaultWorkers is the number of workers training uses with threads kernel
// threads when not told: one per thread, up to maxDefaultWorkers.
func DefaultWorkers(threads int) int { return min(max(threads, 1), maxDefaultWorkers) }

// maxDefaultWorkers bounds the default: each worker beyond the first costs
// one gradient buffer of the model's size, and shards of a few sentences
// make small products. Measured on 2 cores only (docs/performance.md);
// above 8 threads the workers share the threads.
const maxDefaultWorkers = 8
