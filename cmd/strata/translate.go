package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/internal/atomicfile"
	"github.com/strata-nmt/strata/internal/textio"
	"golang.org/x/term"
)

// translateFlags holds strata translate's options.
type translateFlags struct {
	models                   []string
	dataDir, input, output   string
	src, tgt, pivot          string
	opt                      decode.Options
	batch, maxTokens, buffer int
	maxSrcLen, threads       int
	workers                  int
	scores, align            bool
	alignLayer               int
	shard                    string
	catalog                  catalogFlags
	trained                  []string
}

// searchFlags registers the search options shared by translate and the
// commands that decode.
func searchFlags(cmd *cobra.Command, o *decode.Options) {
	*o = decode.Defaults()
	fl := cmd.Flags()
	fl.IntVar(&o.Beam, "beam", o.Beam, "beam size")
	fl.BoolVar(&o.Greedy, "greedy", false, "greedy search (most probable token each step)")
	fl.Float64Var(&o.LenPen, "lenpen", o.LenPen, "length penalty: score = Σ log p / length^lenpen (EOS counted)")
	fl.Float64Var(&o.MaxLenA, "max-len-a", 1.2, "max output length = a·src_len + b")
	fl.IntVar(&o.MaxLenB, "max-len-b", 10, "max output length = a·src_len + b")
	fl.BoolVar(&o.BatchMaxLen, "batch-max-len", false, "use the padded batch width as src_len, as fairseq does (default: each sentence's own length)")
	fl.IntVar(&o.MinLen, "min-len", o.MinLen, "forbid EOS before this many tokens")
	fl.IntVar(&o.RepeatStop, "repeat-stop", decode.DefaultRepeatStop, fmt.Sprintf("end an output once its last N tokens (at least 3 blocks) repeat one block of 1-%d tokens (0: off)", decode.MaxRepeatBlock))
	fl.Float64Var(&o.UnkPenalty, "unkpen", 0, "penalty subtracted from <unk>'s log-probability")
	fl.IntVar(&o.NoRepeatNgram, "no-repeat-ngram", 0, "block repeated n-grams of this size (0: off)")
	fl.IntVar(&o.NBest, "nbest", 1, "hypotheses per sentence (LINE<TAB>SCORE<TAB>TEXT lines when > 1); samples per sentence with --sampling")
	fl.BoolVar(&o.Sampling.On, "sampling", false, "sample outputs from the model's distribution instead of searching (e.g. for back-translation)")
	fl.IntVar(&o.Sampling.TopK, "sampling-topk", 0, "sample from the k most probable tokens only (0: all)")
	fl.Float64Var(&o.Sampling.TopP, "sampling-topp", 0, "sample from the smallest set of tokens holding this probability (0: all)")
	fl.Float64Var(&o.Sampling.Temperature, "temperature", 1, "divide log-probabilities by this before sampling")
	fl.Uint64Var(&o.Sampling.Seed, "sampling-seed", 1, "sampling seed (a line's samples depend only on the seed and the line)")
	computeFlags(fl, o)
	// fairseq's spelling, for scripts moved over from fairseq-generate
	aliases(cmd, map[string]string{"no-repeat-ngram-size": "no-repeat-ngram"})
}

func init() {
	var f translateFlags
	cmd := &cobra.Command{
		Use:   "translate --model RUN_OR_FILE [--model ...] [--data DIR] --src-lang X --tgt-lang Y [--input F] [--output F]",
		Short: "Translate text with beam search (stdin to stdout by default)",
		Long: fmt.Sprintf(`Translates one sentence per line, keeping input order and empty lines, with
fairseq's beam search over incremental decoder state. Input (a file, gzip
recognised by its magic bytes, a pipe or FIFO such as <(zcat f.gz), or - for
standard input) is streamed: read and translated --buffer lines at a time
(sorted by length into batches), written in input order, so memory stays
bounded for any input size and nothing is read twice. A line longer than
--max-src-len subword tokens (at most %d, which no flag removes) is
truncated with a warning, so memory also stays bounded for any line. The model is a run
directory (model.bin, else checkpoint_best.bin, else checkpoint_last.bin;
the data directory comes
from its run.json unless --data is given) or a model/checkpoint file; repeat
--model to decode with an ensemble (the mean of the models' next-token
probabilities, as fairseq's --path a.pt:b.pt). --pivot en translates
X→en→Y in one command. See docs/decoding.md. --format po (and the other
catalogue formats) fills a catalogue's untranslated entries instead, with
placeholders and markup protected, marking the output for review
(docs/l10n.md).`, decode.HardMaxSrcLen),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runTranslate(cmd, &f) },
	}
	fl := cmd.Flags()
	modelFlags(cmd, &f.models, &f.dataDir, &f.threads)
	trainedDirectionsFlag(cmd, &f.trained)
	decodersFlag(cmd, &f.workers)
	fl.StringVarP(&f.input, "input", "i", "-", "input file, plain or gzip, a pipe or FIFO (- for standard input)")
	fl.StringVarP(&f.output, "output", "o", "-", "output file (- for standard output; written atomically)")
	fl.StringVar(&f.src, "src-lang", "", "source language (sets the encoder tag under S-ENC-T-DEC)")
	fl.StringVar(&f.tgt, "tgt-lang", "", "target language (the forced decoder tag under S-ENC-T-DEC, the encoder tag under T-ENC)")
	fl.StringVar(&f.pivot, "pivot", "", "translate through this language (X→pivot→Y)")
	fl.IntVar(&f.batch, "batch-size", 64, "sentences per batch")
	fl.IntVar(&f.maxTokens, "max-tokens", defaultDecodeMaxTokens, "padded source tokens per batch (0: no bound)")
	fl.IntVar(&f.buffer, "buffer", 2000, "lines read and sorted at a time")
	fl.IntVar(&f.maxSrcLen, "max-src-len", 1024, fmt.Sprintf("truncate longer sources, in subword tokens with tag and EOS (with a warning); 0: the hard bound %d, which no setting removes", decode.HardMaxSrcLen))
	fl.BoolVar(&f.scores, "scores", false, "prefix each output with its score and a tab")
	fl.BoolVar(&f.align, "alignment", false, "append \" ||| \" and word alignments (s-t pairs, 0-based) from the encoder attention, as Marian's --alignment hard")
	fl.IntVar(&f.alignLayer, "alignment-layer", -1, "decoder layer whose encoder attention aligns, 0-based (-1: the penultimate)")
	fl.StringVar(&f.shard, "shard", "", "translate only shard `I/N` of --input's lines (N contiguous parts, I from 1); cat of the N outputs in order is the whole translation (docs/distributed.md)")
	catalogFlagsOn(cmd, &f.catalog)
	searchFlags(cmd, &f.opt)
	rootCmd.AddCommand(aliases(cmd, map[string]string{"out": "output"}))
}

func runTranslate(cmd *cobra.Command, f *translateFlags) error {
	if len(f.models) == 0 {
		return fmt.Errorf("translate: --model is required")
	}
	if f.maxSrcLen < 0 || f.maxSrcLen > decode.HardMaxSrcLen {
		return fmt.Errorf("translate: --max-src-len %d: must be between 1 and %d (0: %d), the bound that keeps a line's memory bounded", f.maxSrcLen, decode.HardMaxSrcLen, decode.HardMaxSrcLen)
	}
	tr, err := newTranslator(f.models, f.dataDir, f.opt, f.threads, f.workers)
	if err != nil {
		return err
	}
	tr.BatchSize, tr.MaxTokens, tr.MaxSrcLen, tr.Warn = f.batch, f.maxTokens, f.maxSrcLen, os.Stderr
	tr.Align, tr.AlignLayer = f.align, f.alignLayer
	if err := setTrainedDirections(tr.B, f.trained); err != nil {
		return err
	}
	if err := tr.CheckDirection(f.src, f.tgt, f.pivot); err != nil {
		return err
	}
	if f.catalog.format != "text" {
		return runTranslateCatalog(cmd, f, tr)
	}
	in, err := textio.OpenFrom(f.input, cmd.InOrStdin())
	if err != nil {
		return err
	}
	defer in.Close()
	total := countLines(f.input, in.Size)
	so := decode.StreamOptions{Src: f.src, Tgt: f.tgt, Pivot: f.pivot, Buffer: f.buffer, Scores: f.scores,
		Progress: os.Stderr, ProgressLog: !term.IsTerminal(int(os.Stderr.Fd())), Total: total, Name: textio.Name(f.input)}
	var src io.Reader = in
	if f.shard != "" {
		if src, err = shardInput(f, in, &so); err != nil {
			return err
		}
	}
	start := time.Now()
	err = writeOutput(cmd, f.output, func(w io.Writer) error { return tr.Stream(src, w, so) })
	if err != nil {
		return err
	}
	el := time.Since(start).Seconds()
	s := tr.Stats
	fmt.Fprintf(os.Stderr, "translated %d lines (%d sentences, %d source / %d generated tokens) in %.1fs: %.2f sentences/s, %.1f tokens/s\n",
		s.Lines, s.Sentences, s.SrcTokens, s.Tokens, el, float64(s.Sentences)/el, float64(s.Tokens)/el)
	return nil
}

// shardInput narrows the input to the lines of --shard.
func shardInput(f *translateFlags, in io.Reader, so *decode.StreamOptions) (io.Reader, error) {
	sh, err := decode.ParseShard(f.shard)
	if err != nil {
		return nil, err
	}
	if f.input == "-" || f.input == "" {
		return nil, fmt.Errorf("translate: --shard needs --input FILE (the shards are cut from its line count)")
	}
	if so.Total == 0 { // gzip: count through a second handle
		if so.Total, err = countTextLines(f.input); err != nil {
			return nil, fmt.Errorf("translate: --shard: %w", err)
		}
	}
	first, end := sh.Lines(so.Total)
	fmt.Fprintf(os.Stderr, "shard %d/%d of %s: %s\n", sh.I, sh.N, f.input, sh.Describe(so.Total))
	so.Total, so.FirstLine = end-first, first
	return decode.LineRange(in, first, end), nil
}

// decodersFlag registers --decoders, the batches decoded at once (serve's
// --decoders answers requests the same way).
func decodersFlag(cmd *cobra.Command, decoders *int) {
	cmd.Flags().IntVar(decoders, "decoders", 0, "batches decoded at once, each by its own decoder with --threads/decoders compute threads (0: one per thread; docs/decoding.md)")
}

// int8Notice says when a searcher decodes in int8 because the model file
// is int8 (asked: the options as the user gave them).
func int8Notice(w io.Writer, asked decode.Options, s *decode.Searcher) {
	if asked.ComputeType == "" && s.Options().ComputeType == "int8" {
		fmt.Fprintln(w, "decoding in int8, the model file's type (--compute-type float32 decodes it dequantized)")
	}
}

// newTranslator loads one model, or several as an ensemble, for decoding
// with workers decoders (0: decode.DefaultWorkers) sharing threads compute
// threads (0: all cores).
func newTranslator(models []string, dataDir string, o decode.Options, threads, workers int) (*decode.Translator, error) {
	decode.TightGC()
	b, err := decode.LoadEnsemble(models, dataDir)
	if err != nil {
		return nil, err
	}
	s, err := b.Searcher(o)
	if err != nil {
		return nil, err
	}
	int8Notice(os.Stderr, o, s)
	if threads > 0 {
		s.SetThreads(threads)
	}
	tr := decode.NewTranslator(b, s)
	if workers == 0 {
		workers = decode.DefaultWorkers(threads)
	}
	if err := tr.SetWorkers(workers, threads); err != nil {
		return nil, err
	}
	return tr, nil
}

// countTextLines counts the lines of a file through textio (gzip too);
// it refuses pipes and FIFOs, which can be read only once.
func countTextLines(path string) (int, error) {
	if st, err := os.Stat(path); err != nil {
		return 0, err
	} else if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%s is not a regular file (a pipe or FIFO can be read only once)", path)
	}
	r, err := textio.Open(path)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	lr := textio.NewLineReader(r, path)
	n := 0
	for {
		if _, err := lr.Next(); err == io.EOF {
			return n, nil
		} else if err != nil {
			return 0, err
		}
		n++
	}
}

// countLines counts the lines of a regular uncompressed file (size ≥ 0),
// reading it through a second handle, for the progress ETA; 0 (unknown)
// for pipes, FIFOs, standard input and gzip, which are read once only.
func countLines(path string, size int64) int {
	if size < 0 {
		return 0
	}
	fh, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer fh.Close()
	buf := make([]byte, 1<<20)
	n, last := 0, byte('\n')
	for {
		k, err := fh.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if k > 0 {
			last = buf[k-1]
		}
		if err != nil {
			if last != '\n' {
				n++
			}
			return n
		}
	}
}

// writeOutput runs fn on stdout ("-") or on an atomically written file.
func writeOutput(cmd *cobra.Command, path string, fn func(io.Writer) error) error {
	if path == "-" || path == "" {
		return fn(cmd.OutOrStdout())
	}
	return atomicfile.WriteWith(path, fn)
}
