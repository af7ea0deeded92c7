// Package quickstart is the README's first command: with no downloads it
// generates a parallel corpus of invented languages (internal/toycorpus),
// prepares it, trains a tiny Transformer for about a minute, translates
// held-out sentences and scores them with SacreBLEU-exact BLEU.
package quickstart

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/internal/atomicfile"
	"github.com/strata-nmt/strata/internal/toycorpus"
	"github.com/strata-nmt/strata/metrics"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
	"github.com/strata-nmt/strata/train"
)

// Options configure the quickstart.
type Options struct {
	Dir           string        // working directory for corpus, data and run
	Train         time.Duration // training budget
	Sentences     int           // training sentences
	TestSentences int           // held-out sentences to translate (≤ 500)
	Beam          int           // beam size (1: greedy)
	Src, Tgt      string        // toy languages
	Log           io.Writer
	LogIsTerminal bool
	// LogWidth gives the terminal's columns (train.Options.LogWidth).
	LogWidth func() int
	Seed     uint64
}

// Defaults returns the README's setting.
func Defaults() Options {
	return Options{Dir: filepath.Join("runs", "quickstart"), Train: time.Minute, Sentences: 40000, TestSentences: 500, Beam: 5, Src: "qaa", Tgt: "qab", Seed: 1}
}

// Result is what the quickstart measured.
type Result struct {
	BLEU     metrics.BLEUScore
	Examples [][3]string // source, reference, hypothesis
	RunDir   string
	DataDir  string
	Updates  int
}

// Run executes every stage; it reuses the corpus and the data directory of
// an earlier run in the same Dir.
func Run(ctx context.Context, o Options) (*Result, error) {
	say := func(format string, args ...any) { fmt.Fprintf(o.Log, format+"\n", args...) }
	corpus := filepath.Join(o.Dir, "corpus")
	say("1/4 corpus: %d sentences of a toy grammar in invented languages %s and %s (%s)", o.Sentences, o.Src, o.Tgt, corpus)
	if err := writeCorpus(corpus, o); err != nil {
		return nil, err
	}
	dataDir := filepath.Join(o.Dir, "data")
	say("2/4 prepare: joint BPE and binarised corpora (%s)", dataDir)
	if _, err := data.Prepare(prepareConfig(corpus, o), dataDir, data.PrepareOptions{}); err != nil {
		return nil, err
	}
	ds, err := data.Open(dataDir)
	if err != nil {
		return nil, err
	}
	runDir := filepath.Join(o.Dir, "run")
	say("3/4 train: tiny Transformer for %s (%s)", o.Train, runDir)
	res, err := trainModel(ctx, o, ds, runDir)
	if err != nil {
		return nil, err
	}
	say("4/4 translate %d held-out sentences (beam %d) and score them", min(o.TestSentences, 500), o.Beam)
	out, err := evaluate(o, ds, runDir)
	if err != nil {
		return nil, err
	}
	out.RunDir, out.DataDir, out.Updates = runDir, dataDir, res.Updates
	return out, nil
}

// writeCorpus writes train/valid/test files, once.
func writeCorpus(dir string, o Options) error {
	if _, err := os.Stat(filepath.Join(dir, "test."+o.Tgt)); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	sents := toycorpus.Generate(o.Sentences+1000, o.Seed)
	splits := map[string][]toycorpus.Sentence{
		"train": sents[:o.Sentences], "valid": sents[o.Sentences : o.Sentences+500], "test": sents[o.Sentences+500:],
	}
	for name, ss := range splits {
		for _, lang := range toycorpus.Languages {
			var b strings.Builder
			for _, s := range ss {
				b.WriteString(s[lang])
				b.WriteByte('\n')
			}
			if err := atomicfile.WriteFile(filepath.Join(dir, name+"."+lang), []byte(b.String())); err != nil {
				return err
			}
		}
	}
	return nil
}

func prepareConfig(corpus string, o Options) *data.Config {
	pair := o.Src + "-" + o.Tgt
	spec := func(split string) data.CorpusSpec {
		return data.CorpusSpec{Pair: pair, Src: split + "." + o.Src, Tgt: split + "." + o.Tgt}
	}
	c := &data.Config{
		Root: corpus, Languages: []string{o.Src, o.Tgt}, Tags: "none",
		BPE: data.BPEConfig{Merges: 600}, MaxLen: 128,
		Splits: map[string][]data.CorpusSpec{"train": {spec("train")}, "valid": {spec("valid")}, "test": {spec("test")}},
	}
	abs, _ := filepath.Abs(corpus)
	c.Root = abs
	c.SetDir(abs)
	return c
}

func trainModel(ctx context.Context, o Options, ds *data.Dataset, runDir string) (*train.Result, error) {
	cfg, err := model.Preset("tiny")
	if err != nil {
		return nil, err
	}
	cfg.SrcVocab, cfg.TgtVocab, cfg.PadID = ds.Vocab.Size(), ds.Vocab.Size(), data.PadID
	cfg.VocabHash = ds.Vocab.Hash()
	cfg.EncoderNorm, cfg.DecoderNorm = model.NormPre, model.NormPre // converges fastest at this size
	opts := train.Defaults()
	opts.Model, opts.Seed, opts.SaveDir = cfg, o.Seed, runDir
	opts.LR, opts.WarmupUpdates, opts.WarmupInitLR = 3e-3, 150, 1e-7
	opts.MaxTime, opts.MaxEpoch = o.Train, 50
	opts.ValidInterval, opts.SaveInterval, opts.LogInterval = 100, 100, 50
	opts.Log, opts.LogIsTerminal, opts.LogWidth = o.Log, o.LogIsTerminal, o.LogWidth
	b, err := data.NewBatcher(ds.Splits["train"], ds.Sequencer(), data.BatcherOptions{MaxTokens: 1024, Seed: o.Seed})
	if err != nil {
		return nil, err
	}
	valid, err := train.ValidBatches(ds, "valid", 4096)
	if err != nil {
		return nil, err
	}
	if err := rundir.WriteInfo(runDir, rundir.Info{DataDir: ds.Dir, DataKey: ds.Manifest.Key,
		VocabHash: cfg.VocabHash, Model: cfg.Summary(), Config: &cfg, Command: "strata quickstart",
		TrainedDirections: ds.Manifest.TrainDirections("train").Strings()}); err != nil {
		return nil, err
	}
	// a fresh run each time: the budget is what the README promises, and no
	// checkpoint of an earlier run is left beside the new ones
	old := []string{rundir.LastCheckpoint, rundir.BestCheckpoint, rundir.MetricsFile}
	if ups, err := rundir.Numbered(runDir); err == nil {
		for _, u := range ups {
			old = append(old, rundir.CheckpointName(u))
		}
	}
	for _, n := range old {
		os.Remove(filepath.Join(runDir, n))
	}
	return train.Run(ctx, opts, train.DataSource{B: b}, valid)
}
