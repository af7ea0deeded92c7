package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/internal/textio"
)

type scoreFlags struct {
	model, dataDir, source, reference, output string
	src, tgt                                  string
	batch, threads                            int
	tokens                                    bool
}

func init() {
	var f scoreFlags
	cmd := &cobra.Command{
		Use:   "score-nll --model RUN_OR_FILE --source F --ref F --src-lang X --tgt-lang Y",
		Short: "Teacher-forced log-probability and token NLL of reference translations",
		Long: `Scores each reference given its source with teacher forcing and writes one
line per pair: LOGPROB<TAB>TOKENS<TAB>NLL_PER_TOKEN, and with --tokens a fourth
column of space-separated token NLLs (natural log; the reference's EOS counts as
a token, the forced target tag does not). The totals (NLL per token and
perplexity) go to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runScoreNLL(cmd, &f) },
	}
	fl := cmd.Flags()
	modelFlags(cmd, &f.model, &f.dataDir, &f.threads)
	fl.StringVar(&f.source, "source", "", "source sentences, one per line (plain or gzip; - for standard input)")
	fl.StringVar(&f.reference, "ref", "", "reference translations, aligned with --source")
	fl.StringVarP(&f.output, "output", "o", "-", "output file (- for standard output)")
	fl.StringVar(&f.src, "src-lang", "", "source language")
	fl.StringVar(&f.tgt, "tgt-lang", "", "target language")
	fl.IntVar(&f.batch, "batch-size", 64, "pairs per batch")
	fl.BoolVar(&f.tokens, "tokens", false, "also write each token's NLL")
	rootCmd.AddCommand(aliases(cmd, map[string]string{"reference": "ref", "out": "output"}))
}

// readAligned reads a source file and its references, which must have
// the same number of lines.
func readAligned(source, reference string) (srcs, refs []string, err error) {
	if srcs, err = textio.ReadLines(source); err != nil {
		return nil, nil, err
	}
	if refs, err = textio.ReadLines(reference); err != nil {
		return nil, nil, err
	}
	if len(srcs) != len(refs) {
		return nil, nil, fmt.Errorf("%s has %d lines but %s has %d", source, len(srcs), reference, len(refs))
	}
	return srcs, refs, nil
}

func runScoreNLL(cmd *cobra.Command, f *scoreFlags) error {
	if f.model == "" || f.source == "" || f.reference == "" {
		return fmt.Errorf("score-nll: --model, --source and --ref are required")
	}
	srcs, refs, err := readAligned(f.source, f.reference)
	if err != nil {
		return fmt.Errorf("score-nll: %w", err)
	}
	opt := decode.Defaults()
	tr, err := newTranslator([]string{f.model}, f.dataDir, opt, f.threads, 1) // teacher forcing: no search
	if err != nil {
		return err
	}
	tr.BatchSize = f.batch
	scores, err := tr.ScoreLines(srcs, refs, f.src, f.tgt)
	if err != nil {
		return err
	}
	var total float64
	var ntok int
	err = writeOutput(cmd, f.output, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		for _, s := range scores {
			total -= s.LogProb
			ntok += s.Tokens()
			fmt.Fprintf(bw, "%.4f\t%d\t%.4f", s.LogProb, s.Tokens(), -s.LogProb/float64(s.Tokens()))
			if f.tokens {
				parts := make([]string, len(s.NLL))
				for i, x := range s.NLL {
					parts[i] = strconv.FormatFloat(float64(x), 'f', 4, 32)
				}
				fmt.Fprintf(bw, "\t%s", strings.Join(parts, " "))
			}
			bw.WriteByte('\n')
		}
		return bw.Flush()
	})
	if err != nil {
		return err
	}
	if ntok > 0 {
		fmt.Fprintf(os.Stderr, "scored %d pairs, %d tokens: NLL %.4f nats/token, perplexity %.2f\n",
			len(scores), ntok, total/float64(ntok), math.Exp(total/float64(ntok)))
	}
	return nil
}
