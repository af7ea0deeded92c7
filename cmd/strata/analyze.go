package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/analysis"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/internal/atomicfile"
)

// analyzeCmd is the parent of the analyses of trained models; each
// analysis adds itself as a subcommand.
var analyzeCmd = &cobra.Command{
	Use:   "analyze",
	Short: "Analyses of trained models and runs (llr, attention, curves, grad-norms, difficulty)",
}

func init() {
	analyzeCmd.AddCommand(cancelsCleanly(llrCmd()), llrPlotCmd())
	rootCmd.AddCommand(analyzeCmd)
}

// llrFlags are the options of strata analyze llr.
type llrFlags struct {
	model, dataDir, dev, test, out, name, pivot string
	langs                                       []string
	maxDev, maxTest, threads                    int
	llr                                         analysis.LLROptions
	opt                                         decode.Options
}

func llrCmd() *cobra.Command {
	f := llrFlags{llr: analysis.LLRDefaults()}
	cmd := &cobra.Command{
		Use:   "llr --model RUN --dev DIR --test DIR --output DIR",
		Short: "Layer-wise language recognition: linear probes for source and target language on every layer",
		Long: `Layer-wise language recognition (LLR, Mao et al. 2023, Section 3.3). For every
encoder and decoder layer, two token-level linear classifiers are trained on
the frozen hidden states: one predicts the source language, one the target
language. They are trained on the supervised directions (to and from --pivot)
of the n-way --dev set (3 epochs, Adam lr 1e-3, batches of 64 sentences) and
tested on the supervised and on the zero-shot directions of the --test set.
Decoder states are those of the model's own output (greedy search by default,
--greedy=false --beam 5 for beam search): the decoder is run teacher-forced on
what it generated, which gives the states of autoregressive generation since
the decoder is causal. Language-tag positions are not counted unless
--include-tags (see docs/zero-shot.md).

Writes OUT/llr.json, OUT/llr.md and OUT/llr_supervised.png,
OUT/llr_zero-shot.png; 'strata analyze llr-plot' overlays several models, as
in the paper's Figure 2.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runLLR(cmd, &f) },
	}
	fl := cmd.Flags()
	modelFlags(cmd, &f.model, &f.dataDir, &f.threads)
	fl.StringVar(&f.dev, "dev", "", "n-way dev directory the probes are trained on (dev.LANG files)")
	fl.StringVar(&f.test, "test", "", "n-way test directory the probes are measured on")
	fl.StringVarP(&f.out, "output", "o", "", "output directory")
	fl.StringVar(&f.name, "name", "model", "name of the model in the figure's legend")
	fl.StringSliceVar(&f.langs, "langs", nil, "languages (default: the model's languages found in both sets)")
	fl.StringVar(&f.pivot, "pivot", "en", "hub language: supervised directions are to and from it")
	fl.IntVar(&f.maxDev, "max-dev-lines", 0, "use only the first N dev lines (0: all)")
	fl.IntVar(&f.maxTest, "max-test-lines", 0, "use only the first N test lines (0: all)")
	fl.IntVar(&f.llr.Epochs, "epochs", f.llr.Epochs, "probe training epochs")
	fl.Float64Var(&f.llr.LR, "lr", f.llr.LR, "probe learning rate (Adam)")
	fl.IntVar(&f.llr.BatchSentences, "batch-sentences", f.llr.BatchSentences, "sentences per probe batch")
	fl.Uint64Var(&f.llr.Seed, "seed", f.llr.Seed, "probe initialisation and batch order")
	fl.BoolVar(&f.llr.IncludeTags, "include-tags", false, "count the language-tag position and the forced decoder prefix as tokens")
	fl.IntVar(&f.llr.MaxTokens, "max-tokens", defaultDecodeMaxTokens, "padded source tokens per decoding batch")
	searchFlags(cmd, &f.opt)
	f.opt.Greedy = true
	fl.Lookup("greedy").DefValue = "true"
	return aliases(cmd, map[string]string{"out": "output"})
}

func runLLR(cmd *cobra.Command, f *llrFlags) error {
	if f.model == "" || f.dev == "" || f.test == "" || f.out == "" {
		return fmt.Errorf("analyze llr: --model, --dev, --test and --output are required")
	}
	if f.opt.Greedy {
		f.opt.Beam, f.opt.NBest = 1, 1
	}
	b, err := decode.Load(f.model, f.dataDir)
	if err != nil {
		return err
	}
	s, err := b.ProbeSearcher(f.opt)
	if err != nil {
		return err
	}
	int8Notice(cmd.ErrOrStderr(), f.opt, s)
	if f.threads > 0 {
		s.SetThreads(f.threads)
	}
	f.llr.Threads, f.llr.Log = f.threads, cmd.ErrOrStderr()
	langs := f.langs
	if len(langs) == 0 {
		if langs, err = testLanguages(f.dev, nil, b.Vocab.Languages()); err != nil {
			return err
		}
	}
	dev, err := analysis.ReadTestSet(f.dev, langs, f.maxDev)
	if err != nil {
		return err
	}
	test, err := analysis.ReadTestSet(f.test, langs, f.maxTest)
	if err != nil {
		return err
	}
	all := analysis.AllDirections(langs, f.pivot)
	sup, zs := analysis.SelectKind(all, f.pivot, analysis.Supervised), analysis.SelectKind(all, f.pivot, analysis.ZeroShot)
	if len(sup) == 0 {
		return fmt.Errorf("analyze llr: no supervised directions (is the pivot %s among the languages %v?)", f.pivot, langs)
	}
	tests := []analysis.LLRSplit{{Name: analysis.Supervised, Set: test, Directions: sup}}
	if len(zs) > 0 {
		tests = append(tests, analysis.LLRSplit{Name: analysis.ZeroShot, Set: test, Directions: zs})
	}
	ctx := cmd.Context()
	res, err := analysis.LLR(ctx, b, analysis.SearchGenerator(s), analysis.LLRSplit{Name: "dev", Set: dev, Directions: sup}, tests, f.llr)
	if err != nil {
		return err
	}
	return writeLLR(cmd, f.out, []analysis.NamedLLR{{Name: f.name, Result: res}}, true)
}

// writeLLR writes llr.json (when single), llr.md and the figures into out,
// and prints the tables.
func writeLLR(cmd *cobra.Command, out string, systems []analysis.NamedLLR, single bool) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if single {
		if err := analysis.WriteJSON(filepath.Join(out, "llr.json"), systems[0].Result); err != nil {
			return err
		}
	}
	var sb strings.Builder
	if err := analysis.LLRMarkdown(&sb, systems); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(out, "llr.md"), []byte(sb.String())); err != nil {
		return err
	}
	files, err := analysis.LLRFigures(filepath.Join(out, "llr"), systems)
	if err != nil {
		return err
	}
	fmt.Fprint(cmd.OutOrStdout(), sb.String())
	fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s/llr.md and %s\n", out, strings.Join(files, ", "))
	return nil
}

func llrPlotCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "llr-plot --output DIR NAME=LLR.json ...",
		Short: "Overlay the LLR curves of several models (the paper's Figure 2) and tabulate them",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("analyze llr-plot: --output is required")
			}
			var systems []analysis.NamedLLR
			for _, a := range args {
				name, path, ok := strings.Cut(a, "=")
				if !ok {
					return fmt.Errorf("%q: want NAME=FILE, e.g. Pre=runs/pre/llr/llr.json", a)
				}
				r, err := analysis.ReadLLR(path)
				if err != nil {
					return err
				}
				systems = append(systems, analysis.NamedLLR{Name: name, Result: r})
			}
			return writeLLR(cmd, out, systems, false)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "", "output directory")
	return aliases(cmd, map[string]string{"out": "output"})
}
