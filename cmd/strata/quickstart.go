package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/quickstart"
)

func init() {
	o := quickstart.Defaults()
	cmd := &cobra.Command{
		Use:   "quickstart",
		Short: "Train and evaluate a tiny model on a generated corpus (no downloads, about two minutes)",
		Long: `quickstart generates a parallel corpus of two invented languages (a toy
grammar with different vocabularies, word orders and morphology; no text is
copied from anywhere), prepares it, trains a tiny Transformer for a minute
(--train-time), translates held-out sentences and reports SacreBLEU-exact
BLEU: about two minutes in all.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Log = cmd.ErrOrStderr()
			o.LogIsTerminal, o.LogWidth = stderrTerminal()
			ctx := cmd.Context()
			res, err := quickstart.Run(ctx, o)
			if err != nil {
				return err
			}
			report(cmd, o, res)
			return nil
		},
	}
	cmd.Flags().StringVar(&o.Dir, "dir", o.Dir, "working directory for the corpus, data and run")
	cmd.Flags().DurationVar(&o.Train, "train-time", o.Train, "training budget")
	cmd.Flags().IntVar(&o.Sentences, "sentences", o.Sentences, "training sentences to generate")
	cmd.Flags().IntVar(&o.TestSentences, "test-sentences", o.TestSentences, "held-out sentences to translate (at most 500)")
	cmd.Flags().IntVar(&o.Beam, "beam", o.Beam, "beam size (1: greedy)")
	rootCmd.AddCommand(cancelsCleanly(cmd))
}

func report(cmd *cobra.Command, o quickstart.Options, res *quickstart.Result) {
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "\nExamples (%s → %s):\n", o.Src, o.Tgt)
	for _, ex := range res.Examples {
		fmt.Fprintf(w, "  source     %s\n  reference  %s\n  strata     %s\n\n", ex[0], ex[1], ex[2])
	}
	fmt.Fprintf(w, "%s\n%s\n\n", res.BLEU.String(), res.BLEU.Signature())
	fmt.Fprintf(w, "The model (%d updates) is in %s; its prepared data in %s.\n", res.Updates, res.RunDir, res.DataDir)
	wd, _ := os.Getwd()
	strata := selfCommand(os.Args[0], wd)
	translate := fmt.Sprintf("%s translate --model %s --input FILE", strata, shellQuote(res.RunDir))
	if len(res.Examples) > 0 {
		translate = fmt.Sprintf("echo %s | %s translate --model %s", shellQuote(res.Examples[0][0]), strata, shellQuote(res.RunDir))
	}
	fmt.Fprintf(w, `
Next steps:
  translate:   %s
  your data:   %s prepare --config configs/l10n-en-de.yaml --output runs/data/l10n-en-de
               %s train --data runs/data/l10n-en-de --save-dir runs/en-de --preset transformer-iwslt --max-update 50000
  evaluate:    %s eval --hyp hyp.txt --ref ref.txt --metrics bleu,chrf
`, translate, strata, strata, strata)
}

// selfCommand is how to run this strata again from the shell in
// directory wd: "go run ./cmd/strata" (or the module path outside the
// repository) when it was started by go run, whose binary lives in a
// temporary go-build directory that is gone afterwards; the path it was
// started as otherwise ("strata" when found on the PATH).
func selfCommand(arg0, wd string) string {
	if strings.Contains(filepath.ToSlash(arg0), "/go-build") {
		if st, err := os.Stat(filepath.Join(wd, "cmd", "strata")); err == nil && st.IsDir() {
			return "go run ./cmd/strata"
		}
		return "go run github.com/strata-nmt/strata/cmd/strata"
	}
	if !strings.ContainsRune(arg0, filepath.Separator) {
		return arg0
	}
	return shellQuote(arg0)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
