package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
)

// One name per meaning across commands (docs/cli.md):
//   --threads   compute (kernel or goroutine) threads, 0: all cores
//   --output/-o every output file or directory
//   --ref       reference translations
//   --model/-m  the model (a run directory or file)
//   --input/-i  the input text
// Older spellings stay accepted as hidden aliases (aliases below).

// defaultDecodeMaxTokens is the --max-tokens of every command that
// translates (translate, eval-matrix, analyze llr, serve): padded source
// tokens per decoding batch.
const defaultDecodeMaxTokens = 12000

// modelFlags registers the block of flags of every command that loads a
// model: --model/-m (model is a *string, or a *[]string for commands that
// decode with an ensemble), --data and --threads.
func modelFlags(cmd *cobra.Command, model any, dataDir *string, threads *int) {
	fl := cmd.Flags()
	switch m := model.(type) {
	case *[]string:
		fl.StringArrayVarP(m, "model", "m", nil, "run directory or model/checkpoint file (repeat for an ensemble)")
	case *string:
		fl.StringVarP(m, "model", "m", "", "run directory or model/checkpoint file")
	default:
		panic(fmt.Sprintf("modelFlags: model is a %T", model))
	}
	fl.StringVar(dataDir, "data", "", "prepared data directory (default: the run's, from its run.json)")
	if threads != nil {
		fl.IntVar(threads, "threads", 0, "compute threads (0: all cores)")
	}
}

// aliases keeps old flag spellings working without showing them in --help:
// old maps each old name to the current one, which it then sets.
func aliases(cmd *cobra.Command, old map[string]string) *cobra.Command {
	prev := cmd.Flags().GetNormalizeFunc()
	cmd.Flags().SetNormalizeFunc(func(f *pflag.FlagSet, name string) pflag.NormalizedName {
		if n, ok := old[name]; ok {
			name = n
		}
		return prev(f, name)
	})
	return cmd
}

// trainedDirectionsFlag registers --trained-directions, for models whose
// run.json and data manifest do not say which directions they were
// trained on.
func trainedDirectionsFlag(cmd *cobra.Command, specs *[]string) {
	cmd.Flags().StringSliceVar(specs, "trained-directions", nil, "directions the model was trained on, e.g. en-de,de-en (default: from its run.json, else its data directory's manifest); it translates from their sources into their targets only")
}

// setTrainedDirections gives b the directions of --trained-directions,
// when given.
func setTrainedDirections(b *decode.Bundle, specs []string) error {
	if len(specs) == 0 {
		return nil
	}
	d, err := data.ParseDirections(specs)
	if err != nil {
		return fmt.Errorf("--trained-directions: %w", err)
	}
	b.Directions = d
	return nil
}
