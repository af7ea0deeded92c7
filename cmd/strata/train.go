package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/engine/mpi"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
	"github.com/strata-nmt/strata/train"
)

type trainFlags struct {
	dataDir, preset, modelConfig, trainSplit, validSplit string
	sets, l2                                             []string
	maxTokens, validMaxTokens, maxSentences              int
	temperature                                          float64
	betas                                                string
	evalBLEU                                             int
	finetuneFrom                                         string
	restart, allowChangedBatches                         bool
}

func init() {
	o := train.Defaults()
	var f trainFlags
	cmd := &cobra.Command{
		Use:   "train --data DIR --save-dir RUN [--preset NAME | --model-config FILE] [--set key=value ...]",
		Short: "Train a model on a prepared data directory",
		Long: `Train an encoder-decoder model on a directory written by 'strata prepare'.

The model comes from a preset (tiny, msc-small, transformer-iwslt,
transformer-base, transformer-big, and the deep presets) or a YAML file, and
any field can be overridden with --set key=value (e.g. --set encoder_norm=pre
--set no_residual_layer=4). Vocabulary sizes come from the data directory.

Checkpoints go to --save-dir (checkpoint_N.bin, checkpoint_last.bin,
checkpoint_best.bin), metrics to RUN/metrics.jsonl (only ever appended to).
Ctrl-C saves a checkpoint. Training into a --save-dir that holds a run
continues it exactly where its last checkpoint stopped when the model and
data are the same (--resume says so explicitly), and otherwise stops with the
settings that differ; --restart moves the old run aside to RUN.old-DATE and
starts afresh. Nothing is ever deleted.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTrain(cmd, o, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.dataDir, "data", "", "prepared data directory (strata prepare)")
	fl.StringVar(&o.SaveDir, "save-dir", "", "run directory for checkpoints and logs")
	fl.StringVar(&f.preset, "preset", "transformer-iwslt", "model preset")
	fl.StringVar(&f.modelConfig, "model-config", "", "YAML model config (overrides --preset)")
	fl.StringVar(&f.finetuneFrom, "finetune-from", "", "start from this trained model (file or run directory): its architecture and weights, a fresh optimiser and schedule; --resume of an existing run wins")
	fl.StringArrayVar(&f.sets, "set", nil, "override a model field: key=value (repeatable)")
	fl.StringVar(&f.trainSplit, "train-split", "train", "split to train on")
	fl.StringVar(&f.validSplit, "valid-split", "valid", "split to validate on (empty: none)")
	fl.IntVar(&f.maxTokens, "max-tokens", 4096, "tokens per batch, padding included")
	fl.IntVar(&f.maxSentences, "batch-size", 0, "sentences per batch at most (fairseq's --batch-size; 0: only --max-tokens bounds a batch)")
	fl.IntVar(&f.validMaxTokens, "valid-max-tokens", 8192, "tokens per validation batch")
	fl.Float64Var(&f.temperature, "lang-temperature", 1, "sampling temperature over language pairs: T=1 samples in proportion to their sizes, larger T flattens towards uniform")
	fl.IntVar(&o.UpdateFreq, "update-freq", o.UpdateFreq, "accumulate gradients over this many batches per update")
	fl.Float64Var(&o.LR, "lr", o.LR, "peak learning rate")
	fl.IntVar(&o.WarmupUpdates, "warmup-updates", o.WarmupUpdates, "linear warm-up updates (then --lr-scheduler's decay)")
	fl.StringVar(&o.LRScheduler, "lr-scheduler", train.SchedInverseSqrt, "decay after warm-up: "+strings.Join(train.Schedules, ", ")+" (cosine and polynomial_decay end at --min-lr at --max-update)")
	fl.Float64Var(&o.MinLR, "min-lr", 0, "learning rate that cosine and polynomial_decay reach at --max-update")
	fl.Float64Var(&o.WarmupInitLR, "warmup-init-lr", o.WarmupInitLR, "learning rate at update 0")
	fl.StringVar(&f.betas, "adam-betas", "0.9,0.98", "Adam β1,β2")
	fl.Float64Var(&o.Adam.Eps, "adam-eps", o.Adam.Eps, "Adam ε")
	fl.Float64Var(&o.Adam.WeightDecay, "weight-decay", 0, "decoupled weight decay")
	fl.StringArrayVar(&f.l2, "l2", nil, "L2 regularisation of a parameter group: group=λ, e.g. encoder=1e-5 (repeatable)")
	fl.Float64Var(&o.ClipNorm, "clip-norm", o.ClipNorm, "clip the global gradient norm (0: off)")
	fl.Float32Var(&o.LabelSmoothing, "label-smoothing", o.LabelSmoothing, "label smoothing ε")
	fl.IntVar(&o.MaxUpdate, "max-update", 0, "stop after this many updates")
	fl.IntVar(&o.MaxEpoch, "max-epoch", 0, "stop after this many epochs")
	fl.DurationVar(&o.MaxTime, "stop-time", 0, "stop after this much training time, e.g. 90m (0: no limit)")
	fl.IntVar(&o.ValidInterval, "validate-interval-updates", 0, "validate every N updates (0: each epoch)")
	fl.IntVar(&o.SaveInterval, "save-interval-updates", 0, "checkpoint every N updates (0: each epoch)")
	fl.DurationVar(&o.SaveTime, "save-interval-time", 0, "also write checkpoint_last.bin when this much time has passed since the last checkpoint, e.g. 20m, so that a crash loses at most that much (0: off; nothing numbered, nothing --keep-last counts)")
	fl.IntVar(&o.KeepLast, "keep-last", o.KeepLast, "numbered checkpoints to keep (of those every --save-interval-updates, when set; one written where a stop fell between them goes when a newer one exists)")
	fl.IntVar(&o.Patience, "patience", 0, "stop after N validations without improvement (0: off)")
	fl.StringVar(&o.BestMetric, "best-checkpoint-metric", "nll", "what picks checkpoint_best.bin and drives --patience: nll (lower is better) or bleu (higher; needs --eval-bleu)")
	fl.IntVar(&o.MaxBadUpdates, "max-bad-updates", o.MaxBadUpdates, "stop after N non-finite updates in a row")
	fl.Uint64Var(&o.Seed, "seed", o.Seed, "random seed (initialisation, dropout, batch order)")
	fl.BoolVar(&o.Resume, "resume", false, "continue from RUN/checkpoint_last.bin (the default when --save-dir holds a run with the same model and data)")
	fl.BoolVar(&f.restart, "restart", false, "move a run already in --save-dir aside (to RUN.old-DATE) and start afresh")
	fl.BoolVar(&f.allowChangedBatches, "allow-changed-batches", false, "resume even though a setting of the batch plan (--seed, --max-tokens, --update-freq, --batch-size, --lang-temperature, --train-split) or the data (same vocabulary) changed")
	fl.IntVar(&o.LogInterval, "log-interval", o.LogInterval, "updates between log lines")
	fl.BoolVar(&o.LogGradNorms, "log-grad-norms", false, "log per-layer gradient norms to metrics.jsonl")
	fl.IntVar(&o.Threads, "threads", 0, "kernel threads (0: all cores)")
	// not --workers: that name had three meanings (docs/cli.md), and
	// fairseq's --num-workers are data loaders
	fl.IntVar(&o.Workers, "batch-shards", 0, "split every batch by sentences into this many shards trained at once by in-process workers sharing --threads (0: one per thread, at most 8)")
	fl.IntVar(&o.MicroBatches, "micro-batches", 1, "run each shard of a batch as this many pieces of sentences one after another: the same update (the same dropout masks) with about 1/N of the activation memory, for a batch that does not fit (unlike --update-freq, which adds more batches)")
	fl.IntVar(&f.evalBLEU, "eval-bleu", 0, "at each validation, greedy-decode this many sentences of the valid split and log BLEU (0: off)")
	rootCmd.AddCommand(cancelsCleanly(aliases(cmd, map[string]string{"temperature": "lang-temperature"})))
}

func runTrain(cmd *cobra.Command, o train.Options, f trainFlags) (err error) {
	if f.dataDir == "" || o.SaveDir == "" {
		return fmt.Errorf("train: --data and --save-dir are required")
	}
	comm, err := mpi.Init()
	if err != nil {
		return err
	}
	defer func() { err = endMPI(comm, err) }()
	o.Comm, o.BatchTokens = comm, f.maxTokens
	ds, err := data.Open(f.dataDir)
	if err != nil {
		return err
	}
	m, err := trainModel(cmd, f, ds, o.Seed)
	if err != nil {
		return err
	}
	o.Model = m.Config()
	if err := parseAdam(&o, f); err != nil {
		return err
	}
	b, valid, err := trainInputs(ds, f, &o)
	if err != nil {
		return err
	}
	o.Log = cmd.ErrOrStderr()
	o.LogIsTerminal, o.LogWidth = stderrTerminal()
	info := rundir.Info{DataDir: f.dataDir, DataKey: ds.Manifest.Key, VocabHash: ds.Vocab.Hash(),
		Model: o.Model.Summary(), Config: &o.Model, Command: strings.Join(os.Args, " "),
		TrainedDirections: ds.Manifest.TrainDirections(f.trainSplit).Strings(), Settings: trainSettings(cmd)}
	// one training per run directory: rank 0 holds its lock (the ranks of
	// an MPI run are one training) before anything in it is moved or read
	if comm.Rank() == 0 {
		lock, err := lockSaveDir(cmd.ErrOrStderr(), o.SaveDir)
		if err != nil {
			return err
		}
		defer func() { lock.Unlock() }()
	}
	// every rank decides alike from what the directory holds; only rank 0
	// moves an old run aside and writes run.json
	lock, err := claimSaveDir(cmd, &o, f, info, comm.Rank() == 0)
	defer lock.Unlock()
	if err != nil {
		if errors.Is(err, errFinished) {
			return nil
		}
		return err
	}
	if comm.Rank() == 0 {
		if err := rundir.WriteInfo(o.SaveDir, info); err != nil {
			return err
		}
	}
	ctx := cmd.Context()
	defer watchMPIStop(ctx, comm, o.SaveDir)()
	res, err := train.RunModel(ctx, o, m, train.DataSource{B: b}, valid)
	if err != nil || comm.Rank() != 0 {
		return err
	}
	reportTrained(cmd.ErrOrStderr(), res, o.SaveDir)
	if ctx.Err() != nil {
		return interruptedError{fmt.Sprintf("training interrupted at update %d; kept the checkpoint and %s in %s: rerun the same command (or add --resume) to continue", res.Updates, rundir.MetricsFile, o.SaveDir)}
	}
	return nil
}

// lockSaveDir takes the run directory's lock; where its file system keeps
// no locks it says so and trains without one.
func lockSaveDir(w io.Writer, dir string) (*rundir.DirLock, error) {
	lock, err := rundir.Lock(dir)
	if errors.Is(err, rundir.ErrNoLocks) {
		fmt.Fprintf(w, "warning: %v\n", err)
		return lock, nil
	}
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	return lock, nil
}

// trainInputs opens the training batches and the validation batches, and
// sets the validation BLEU hook when --eval-bleu asks for it.
func trainInputs(ds *data.Dataset, f trainFlags, o *train.Options) (*data.Batcher, []model.Batch, error) {
	split, err := ds.Split(f.trainSplit)
	if err != nil {
		return nil, nil, err
	}
	b, err := data.NewBatcher(split, ds.Sequencer(), data.BatcherOptions{MaxTokens: f.maxTokens, MaxSentences: f.maxSentences, Seed: o.Seed, Temperature: f.temperature})
	if err != nil {
		return nil, nil, err
	}
	if f.validSplit == "" {
		return b, nil, nil
	}
	valid, err := train.ValidBatches(ds, f.validSplit, f.validMaxTokens)
	if err != nil {
		return nil, nil, err
	}
	if f.evalBLEU > 0 {
		vb, err := decode.NewValidBLEU(ds, f.validSplit, f.evalBLEU)
		if err != nil {
			return nil, nil, err
		}
		o.ValidHook = vb.Hook
	}
	return b, valid, nil
}

// reportTrained prints the run's end: why it stopped, where, how fast.
func reportTrained(w io.Writer, res *train.Result, saveDir string) {
	best := "no validation yet"
	if res.BestValid != 0 {
		best = fmt.Sprintf("best valid nll %.3f bits", res.BestValid)
	}
	fmt.Fprintf(w, "%s after %d updates (%d epochs); %s; %.0f target tokens/s; run in %s\n",
		res.Stopped, res.Updates, res.Epochs, best, res.TokensPerS, saveDir)
}

// trainModel is the model to train: the fine-tuned one with
// --finetune-from, else a new one from the preset or model config.
func trainModel(cmd *cobra.Command, f trainFlags, ds *data.Dataset, seed uint64) (model.Model, error) {
	if f.finetuneFrom != "" {
		return finetuneModel(cmd, f, ds, seed)
	}
	c, err := modelConfig(f, ds)
	if err != nil {
		return nil, err
	}
	return model.New(c, seed)
}

func modelConfig(f trainFlags, ds *data.Dataset) (model.Config, error) {
	var c model.Config
	var err error
	if f.modelConfig != "" {
		c, err = model.LoadConfig(f.modelConfig)
	} else {
		c, err = model.Preset(f.preset)
	}
	if err != nil {
		return c, err
	}
	c.SrcVocab, c.TgtVocab, c.PadID = ds.Vocab.Size(), ds.Vocab.Size(), data.PadID
	c.VocabHash = ds.Vocab.Hash()
	if err := c.Override(f.sets); err != nil {
		return c, err
	}
	return c, c.Validate()
}

func parseAdam(o *train.Options, f trainFlags) error {
	parts := strings.Split(f.betas, ",")
	if len(parts) != 2 {
		return fmt.Errorf("--adam-betas %q: want two numbers, e.g. 0.9,0.98", f.betas)
	}
	var err1, err2 error
	o.Adam.Beta1, err1 = strconv.ParseFloat(strings.TrimSpace(parts[0]), 64)
	o.Adam.Beta2, err2 = strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("--adam-betas %q: want two numbers, e.g. 0.9,0.98", f.betas)
	}
	if len(f.l2) > 0 {
		o.Adam.L2 = map[string]float64{}
	}
	for _, s := range f.l2 {
		k, v, ok := strings.Cut(s, "=")
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return fmt.Errorf("--l2 %q: want group=λ, e.g. encoder=1e-5", s)
		}
		o.Adam.L2[k] = x
	}
	return nil
}

// claimSaveDir makes --save-dir safe to train into: a run already there is
// continued when its model and data are the ones asked for, refused with
// the differing settings otherwise, or, with --restart, moved aside to a
// dated folder, the fresh directory then locked anew (the lock returned;
// nil otherwise). Nothing is deleted.
func claimSaveDir(cmd *cobra.Command, o *train.Options, f trainFlags, now rundir.Info, lead bool) (*rundir.DirLock, error) {
	restart := f.restart
	if restart && o.Resume {
		return nil, fmt.Errorf("train: --restart and --resume exclude each other")
	}
	old, err := rundir.Inspect(o.SaveDir)
	if err != nil || old == nil {
		return nil, err
	}
	if restart {
		if !lead {
			return nil, nil // rank 0 moves it
		}
		moved, err := rundir.MoveAside(o.SaveDir)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "moved the earlier run in %s to %s\n", o.SaveDir, moved)
		// the lock moved with the old directory: the new one needs its own
		return lockSaveDir(cmd.ErrOrStderr(), o.SaveDir)
	}
	return nil, resumeClaim(cmd, o, f, old, now, lead)
}

// resumeClaim decides whether the run in o.SaveDir can be continued with
// these settings, and sets o to continue it.
func resumeClaim(cmd *cobra.Command, o *train.Options, f trainFlags, old *rundir.Existing, now rundir.Info, lead bool) error {
	diffs, data := old.SplitDifferences(now)
	if !f.allowChangedBatches {
		// other data changes the batch plan: refused like a new seed
		diffs, data = append(diffs, data...), nil
	}
	if len(diffs) > 0 {
		return &rundir.MismatchError{Dir: o.SaveDir, Diffs: diffs}
	}
	o.ResumeChanges = append(o.ResumeChanges, data...)
	if len(data) > 0 && lead {
		fmt.Fprintf(cmd.ErrOrStderr(), "%s: continuing on other data (--allow-changed-batches): %s (recorded in metrics.jsonl's resume record)\n", o.SaveDir, strings.Join(data, "; "))
	}
	if err := resumeSettings(cmd, o, f, old, now, lead); err != nil {
		return err
	}
	if !o.Resume && lead {
		at := "from its last checkpoint"
		if old.Checkpoint == nil {
			at = "from update 0 (it has no checkpoint yet)"
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "%s holds a run with the same model and data: continuing it %s (--restart starts afresh)\n", o.SaveDir, at)
	}
	o.Resume = true
	return nil
}

// stderrTerminal says whether standard error is a terminal, where
// training redraws a live line, and gives its columns at each call, which
// the line is fitted into (0: unknown); asked anew at each redraw, it
// follows a resized window.
func stderrTerminal() (bool, func() int) {
	fd := int(os.Stderr.Fd())
	if !term.IsTerminal(fd) {
		return false, nil
	}
	return true, func() int {
		w, _, err := term.GetSize(fd)
		if err != nil {
			return 0
		}
		return w
	}
}
