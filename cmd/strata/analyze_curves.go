package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/analysis"
	"github.com/strata-nmt/strata/plot"
	"github.com/strata-nmt/strata/rundir"
)

func init() {
	var out string
	var smooth, updates int
	cmd := &cobra.Command{
		Use:   "curves RUN [RUN...] --output PNG",
		Short: "Plot training and validation loss of one or more runs (from RUN/metrics.jsonl)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, runs []string) error {
			var series []plot.Series
			for _, run := range runs {
				recs, err := rundir.ReadMetrics(run)
				if err != nil {
					return err
				}
				name := filepath.Base(filepath.Clean(run))
				tr, va := analysis.LossCurves(recs, smooth, updates)
				tr.Name, va.Name = name+" train", name+" valid"
				series = append(series, tr)
				if len(va.X) > 0 {
					series = append(series, va)
				}
			}
			if err := plot.Lines(out, "Loss per target token", "update", "bits per token", series); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s\n", out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "curves.png", "PNG file to write")
	cmd.Flags().IntVar(&smooth, "smooth", 50, "average the training loss over this many updates")
	cmd.Flags().IntVar(&updates, "updates", 0, "plot only the first N updates (0: all), to compare runs at a common budget")
	analyzeCmd.AddCommand(aliases(cmd, map[string]string{"out": "output"}))
}
