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
	var smooth int
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
				tr, va := lossSeries(recs, smooth)
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
	analyzeCmd.AddCommand(aliases(cmd, map[string]string{"out": "output"}))
}

// lossSeries returns the training loss (nll, averaged over windows of
// smooth updates) and the validation nll.
func lossSeries(recs []rundir.Record, smooth int) (tr, va plot.Series) {
	for _, r := range recs {
		switch r.Type {
		case "train":
			tr.X, tr.Y = append(tr.X, float64(r.Update)), append(tr.Y, r.NLL)
		case "valid":
			va.X, va.Y = append(va.X, float64(r.Update)), append(va.Y, r.Loss)
		}
	}
	tr.X, tr.Y = analysis.WindowMeans(tr.X, tr.Y, smooth)
	return tr, va
}
