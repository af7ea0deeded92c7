package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/analysis"
	"github.com/strata-nmt/strata/plot"
)

func init() {
	var out string
	var updates, lines, block, smooth int
	var logY, profile bool
	var params string
	cmd := &cobra.Command{
		Use:   "grad-norms RUN [RUN...] --output PREFIX",
		Short: "Plot the gradient norm of encoder layers over training (the MSC paper's Figure 5)",
		Long: `Reads the per-layer gradient norms that strata train --log-grad-norms writes to
RUN/metrics.jsonl and plots, for each run, the norm of --lines encoder layers
spread evenly from the lowest to the top (L1 is the lowest) over the first
--updates updates, to PREFIX-RUNNAME.png, and prints each drawn layer's
median norm and the ratio of the lowest layer's median to the top one's
(the paper's claim is that MSC balances them).

--params shared plots the norm over the parameters that every encoder layer
has (self-attention and FFN with their LayerNorms), leaving out MSC's context
attention and gate (about 43% of an msc-18 layer), so that MSC and plain
layers compare like for like; --params all (the default) is the whole layer.

--block N also prints the mean norm of the lowest N layers over the updates
read divided by that of the top N, and the two means (N = 6: MSC-36's
bottom and top blocks).

--smooth N draws each layer's mean over windows of N updates (the paper
does not say whether its Figure 5 is smoothed); the printed medians and
ratios are of the per-update norms.

--profile also draws PREFIX-profile.png: every encoder layer's mean norm
over the updates read, by depth, one curve per run, so that runs compare
in one picture at every layer, the middle ones included; the numbers go to
PREFIX-profile.tsv (a row per layer, a column per run).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, runs []string) error {
			if params != "all" && params != "shared" {
				return fmt.Errorf("--params %q: want all or shared", params)
			}
			// PREFIX often names a new folder (--out fig5/shared)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			var depth []analysis.DepthProfile
			for _, run := range runs {
				layers, err := plotGradNorms(cmd.OutOrStdout(), run, gradNormsPlot{out, params, updates, lines, block, smooth, logY})
				if err != nil {
					return err
				}
				depth = append(depth, analysis.NewDepthProfile(runName(run), layers))
			}
			if !profile {
				return nil
			}
			return writeDepthProfile(cmd.OutOrStdout(), out+"-profile", params, updates, depth, logY)
		},
	}
	cmd.Flags().StringVarP(&out, "output", "o", "grad-norms", "output prefix: PREFIX-RUNNAME.png")
	cmd.Flags().IntVar(&updates, "updates", 0, "plot only the first N updates (0: all)")
	cmd.Flags().IntVar(&lines, "lines", 6, "encoder layers to draw, evenly spaced from the lowest to the top")
	cmd.Flags().BoolVar(&logY, "log-y", false, "logarithmic norm axis")
	cmd.Flags().IntVar(&smooth, "smooth", 1, "draw the mean over windows of this many updates (1: every update)")
	cmd.Flags().IntVar(&block, "block", 0, "also print the mean norm of the lowest N layers over that of the top N (0: off)")
	cmd.Flags().BoolVar(&profile, "profile", false, "also draw PREFIX-profile.png (and its numbers, PREFIX-profile.tsv): each encoder layer's mean norm by depth, one curve per run")
	cmd.Flags().StringVar(&params, "params", "all", "all: a layer's whole gradient; shared: self-attention and FFN only (like for like across architectures)")
	analyzeCmd.AddCommand(aliases(cmd, map[string]string{"out": "output"}))
}

// gradNormsTitle names what a grad-norms plot measures.
func gradNormsTitle(params string) string {
	if params == "shared" {
		return "Gradient norm of encoder layers (self-attention + FFN): "
	}
	return "Gradient norm of encoder layers: "
}

// gradNormsPlot is what grad-norms draws and prints for each run.
type gradNormsPlot struct {
	out, params                   string
	updates, lines, block, smooth int
	logY                          bool
}

// plotGradNorms draws one run's encoder layers to PREFIX-RUNNAME.png,
// prints their medians and, with block, the bottom/top block ratio, and
// returns the layers read.
func plotGradNorms(w io.Writer, run string, o gradNormsPlot) ([]*analysis.LayerGradNorms, error) {
	layers, err := analysis.ReadEncoderGradNorms(filepath.Join(run, "metrics.jsonl"), o.updates, o.params == "shared")
	if err != nil {
		return nil, err
	}
	var series []plot.Series
	var medians []string
	for _, i := range analysis.SpreadLayers(len(layers), o.lines) {
		x, y := analysis.WindowMeans(layers[i].Updates, layers[i].Norms, o.smooth)
		series = append(series, plot.Series{Name: fmt.Sprintf("L%d", i+1), X: x, Y: y})
		medians = append(medians, fmt.Sprintf("L%d %.4g", i+1, layers[i].Median()))
	}
	opts := normAxis(o.logY)
	name := runName(run)
	path := fmt.Sprintf("%s-%s.png", o.out, name)
	if err := plot.Lines(path, gradNormsTitle(o.params)+name, "update", "gradient norm", series, opts...); err != nil {
		return nil, err
	}
	fmt.Fprintf(w, "wrote %s (%d of %d encoder layers)\n", path, len(series), len(layers))
	bottom, top := layers[0], layers[len(layers)-1]
	fmt.Fprintf(w, "%s: median gradient norm over %d updates: %s; bottom/top %.2f\n",
		name, len(bottom.Norms), strings.Join(medians, ", "), bottom.Median()/top.Median())
	if o.block > 0 {
		bottom, top := analysis.BlockMeans(layers, o.block)
		if math.IsNaN(bottom) {
			return nil, fmt.Errorf("%s: --block %d needs at least %d encoder layers, the run has %d", run, o.block, 2*o.block, len(layers))
		}
		fmt.Fprintf(w, "%s: mean gradient norm of the lowest %d layers / the top %d: %.2f (%.4g / %.4g)\n",
			name, o.block, o.block, bottom/top, bottom, top)
	}
	return layers, nil
}

// normAxis is the plot options of a norm axis: logarithmic with --log-y.
func normAxis(logY bool) []plot.Option {
	if logY {
		return []plot.Option{plot.LogY()}
	}
	return nil
}

// runName is how plots and printouts name a run: its directory's name.
func runName(run string) string { return filepath.Base(filepath.Clean(run)) }

// writeDepthProfile draws the runs' depth profiles in one chart,
// PREFIX.png, and writes their numbers to PREFIX.tsv.
func writeDepthProfile(w io.Writer, prefix, params string, updates int, depth []analysis.DepthProfile, logY bool) error {
	over := "every update read"
	if updates > 0 {
		over = fmt.Sprintf("the first %d updates", updates)
	}
	var series []plot.Series
	for _, p := range depth {
		series = append(series, depthSeries(p))
	}
	title := strings.TrimSuffix(gradNormsTitle(params), ": ") + ", mean over " + over
	if err := plot.Lines(prefix+".png", title, "encoder layer (1: the lowest)", "mean gradient norm", series, normAxis(logY)...); err != nil {
		return err
	}
	if err := analysis.WriteDepthProfiles(prefix+".tsv", depth); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s.png and .tsv (each encoder layer's mean norm, %d runs)\n", prefix, len(depth))
	return nil
}

// depthSeries is one run's curve of the depth profile (x: layer, 1 the lowest).
func depthSeries(p analysis.DepthProfile) plot.Series {
	s := plot.Series{Name: p.Run, Y: p.Means}
	for i := range p.Means {
		s.X = append(s.X, float64(i+1))
	}
	return s
}
