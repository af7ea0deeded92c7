package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
)

func init() {
	var dataDir, split, output string
	opt := decode.DefaultShortlistOptions()
	cmd := &cobra.Command{
		Use:   "shortlist --data DIR --output FILE [--k 50] [--frequent 300]",
		Short: "Learn a lexical shortlist (target tokens per source token) for --shortlist",
		Long: `Counts, over the sentence pairs of a prepared split, how often each source
token and each target token occur in the same pair, and keeps for each source
token the --k target tokens with the highest association score (--score dice:
2·c(s,t)/(c(s)+c(t)), or cond: c(s,t)/c(s)), besides the --frequent most
frequent target tokens, which every batch may use. translate, serve and
eval-matrix --shortlist FILE then decode each batch over the union of its
sources' lists. See docs/decoding.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dataDir == "" || output == "" {
				return fmt.Errorf("shortlist: --data and --output are required")
			}
			ds, err := data.Open(dataDir)
			if err != nil {
				return err
			}
			sp, err := ds.Split(split)
			if err != nil {
				return err
			}
			sl, err := decode.LearnShortlist(sp, ds.Vocab.Size(), opt)
			if err != nil {
				return err
			}
			sl.Header.DataKey = ds.Manifest.Key
			if err := sl.Save(output); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "shortlist of %d + %d per source token from %d pairs written to %s\n",
				len(sl.Frequent), opt.K, sl.Header.Pairs, output)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&dataDir, "data", "", "prepared data directory")
	fl.StringVar(&split, "split", "train", "split to learn from")
	fl.StringVar(&output, "output", "", "shortlist file to write")
	fl.IntVar(&opt.K, "k", opt.K, "target tokens kept per source token")
	fl.IntVar(&opt.Frequent, "frequent", opt.Frequent, "most frequent target tokens always kept")
	fl.StringVar(&opt.Score, "score", opt.Score, "association score: dice or cond")
	fl.IntVar(&opt.MinCount, "min-count", opt.MinCount, "ignore pairs co-occurring in fewer sentence pairs")
	rootCmd.AddCommand(cmd)
}
