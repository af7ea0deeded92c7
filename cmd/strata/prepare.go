package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/strata-nmt/strata/data"
)

func init() {
	var (
		configPath, out   string
		merges, vocabSize int
		maxLen, workers   int
		force             bool
		paddingTokens     int
	)
	cmd := &cobra.Command{
		Use:   "prepare --config C --output DIR",
		Short: "Learn the subword model and binarise corpora into a data directory",
		Long: `prepare reads the corpora of a YAML config (see configs/ and docs/data.md),
learns a joint BPE model on the train split (both sides), and writes to DIR the
model (bpe.json), the vocabulary (vocab.txt), every corpus binarised
(token ids, so training never re-tokenises) and, last, manifest.json with the
inputs' checksums and a report. Rerunning with unchanged config and inputs
does nothing; an interrupted run leaves no manifest, so it never looks
complete.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if configPath == "" || out == "" {
				return fmt.Errorf("prepare: --config and --output are required")
			}
			cfg, err := data.LoadConfig(configPath)
			if err != nil {
				return err
			}
			if merges > 0 || vocabSize > 0 {
				cfg.BPE.Merges, cfg.BPE.VocabSize = merges, vocabSize
			}
			if cmd.Flags().Changed("max-len") {
				cfg.MaxLen = maxLen
			}
			rep, err := data.Prepare(cfg, out, data.PrepareOptions{
				Log: os.Stderr, Terminal: term.IsTerminal(int(os.Stderr.Fd())),
				Force: force, Workers: workers, PaddingMaxTokens: paddingTokens,
			})
			if err != nil {
				return err
			}
			rep.Print(cmd.OutOrStdout())
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&configPath, "config", "", "YAML config (paths in it are relative to it; - for standard input, paths then relative to the working directory)")
	f.StringVarP(&out, "output", "o", "", "data directory to write")
	f.IntVar(&merges, "merges", 0, "BPE merges (overrides the config)")
	f.IntVar(&vocabSize, "vocab-size", 0, "whole vocabulary size (overrides the config)")
	f.IntVar(&maxLen, "max-len", 0, "drop training pairs with a side over this many subword tokens (overrides the config; 0: no limit)")
	f.IntVar(&workers, "threads", 0, "compute threads (0: all cores)")
	f.BoolVar(&force, "force", false, "rebuild even if the directory is up to date")
	f.IntVar(&paddingTokens, "padding-max-tokens", 4096, "max tokens of the batches whose padding the report gives")
	rootCmd.AddCommand(aliases(cmd, map[string]string{"out": "output", "workers": "threads"}))
}
