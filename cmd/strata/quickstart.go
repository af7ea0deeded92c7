package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/strata-nmt/strata/quickstart"
)

func init() {
	o := quickstart.Defaults()
	cmd := &cobra.Command{
		Use:   "quickstart",
		Short: "Train and evaluate a tiny model on a generated corpus (no downloads, about two minutes)",
		Long: `quickstart generates a parallel corpus of two invented languages (a toy
grammar with different vocabularies, word orders and morphology; no text is
copied from anywhere), prepares it, trains a tiny Transformer for about a
minute, translates held-out sentences and reports SacreBLEU-exact BLEU.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Log = cmd.ErrOrStderr()
			o.LogIsTerminal = term.IsTerminal(int(os.Stderr.Fd()))
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
	fmt.Fprintf(w, `
Next steps:
  translate:   strata translate --model %s --input FILE
  your data:   strata prepare --config configs/l10n-en-de.yaml --output runs/data/l10n-en-de
               strata train --data runs/data/l10n-en-de --save-dir runs/en-de --preset transformer-iwslt --max-update 50000
  evaluate:    strata eval --hyp hyp.txt --ref ref.txt --metrics bleu,chrf
`, res.RunDir)
}
