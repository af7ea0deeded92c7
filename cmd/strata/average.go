package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
)

func init() {
	var (
		dir, output string
		last        int
	)
	cmd := &cobra.Command{
		Use:   "average (--last N --dir RUN | CHECKPOINT...) --output FILE",
		Short: "Average checkpoints element-wise (fairseq's average_checkpoints)",
		Long: `Writes a model file whose parameters are the element-wise mean of the given
checkpoints (or the N numbered checkpoints of a run directory with the highest
update numbers). Checkpoints of different architectures or parameter sets are
refused. The result loads with strata translate --model FILE.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if output == "" {
				return fmt.Errorf("average: --output is required")
			}
			paths := args
			switch {
			case last > 0 && len(args) > 0:
				return fmt.Errorf("average: give --last N or a list of checkpoints, not both")
			case last > 0:
				if dir == "" {
					return fmt.Errorf("average: --last needs --dir RUN")
				}
				var err error
				if paths, err = rundir.LastCheckpoints(dir, last); err != nil {
					return err
				}
			case len(args) == 0:
				return fmt.Errorf("average: give --last N --dir RUN or checkpoint files")
			}
			m, err := decode.Average(paths)
			if err != nil {
				return err
			}
			if err := model.Save(output, m, map[string]any{"averaged": paths}); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "averaged %d checkpoints into %s\n", len(paths), output)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&last, "last", 0, "average the N latest numbered checkpoints of --dir")
	fl.StringVar(&dir, "dir", "", "run directory (with --last)")
	fl.StringVarP(&output, "output", "o", "", "model file to write")
	rootCmd.AddCommand(cmd)
}
