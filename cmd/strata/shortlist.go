package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
)

func init() {
	var dataDir, split, output, report string
	opt := decode.DefaultShortlistOptions()
	cmd := &cobra.Command{
		Use:   "shortlist --data DIR --output FILE [--k 50] [--frequent 2000] [--report test]",
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
			// every argument is checked before the output is written
			if err := opt.Validate(ds.Vocab.Size()); err != nil {
				return err
			}
			if report != "" {
				if _, err := ds.Split(report); err != nil {
					return fmt.Errorf("--report: %w", err)
				}
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
			if report == "" {
				return nil
			}
			return reportShortlist(ds, report, sl)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&dataDir, "data", "", "prepared data directory")
	fl.StringVar(&split, "split", "train", "split to learn from")
	fl.StringVarP(&output, "output", "o", "", "shortlist file to write")
	fl.IntVar(&opt.K, "k", opt.K, "target tokens kept per source token")
	fl.IntVar(&opt.Frequent, "frequent", opt.Frequent, "most frequent target tokens always kept")
	fl.StringVar(&opt.Score, "score", opt.Score, "association score: dice or cond")
	fl.StringVar(&report, "report", "", "split to measure the list on (e.g. test): union size and reference coverage at batch sizes 1, 8 and 32")
	fl.IntVar(&opt.MinCount, "min-count", opt.MinCount, "ignore pairs co-occurring in fewer sentence pairs")
	rootCmd.AddCommand(cmd)
}

// reportShortlist prints what the shortlist costs (union rows per batch) and
// keeps (reference tokens and lines inside the union) on a split.
func reportShortlist(ds *data.Dataset, split string, sl *decode.Shortlist) error {
	sp, err := ds.Split(split)
	if err != nil {
		return err
	}
	srcs, refs := make([][]int32, sp.Len()), make([][]int32, sp.Len())
	for i := range srcs {
		p, j := sp.Locate(i)
		srcs[i], refs[i] = p.Pair(j)
	}
	fmt.Printf("%s split, %d sentences, vocabulary %d (batches of consecutive sentences)\n", split, len(srcs), sl.Header.Vocab)
	fmt.Println("batch\tmean rows\tshare\treference tokens inside\treference lines inside")
	for _, b := range []int{1, 8, 32} {
		c := sl.Coverage(srcs, refs, b)
		fmt.Printf("%d\t%.0f\t%.1f%%\t%.2f%%\t%.1f%%\n", b, c.MeanRows, 100*c.MeanRows/float64(sl.Header.Vocab), 100*c.RefTokens, 100*c.RefLines)
	}
	return nil
}
