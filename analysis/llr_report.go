package analysis

import (
	"fmt"
	"io"
	"math"

	"github.com/strata-nmt/strata/metrics"
	"github.com/strata-nmt/strata/plot"
)

// NamedLLR labels an LLR result in figures and tables (e.g. "Pre", "Post").
type NamedLLR struct {
	Name   string
	Result *LLRResult
}

// LLRFigures draws the paper's Figure 2, one PNG per test split
// (PREFIX_SPLIT.png): the source- and target-language accuracy (%) of every
// system along the layers 1..E+D (encoder first). It returns the files.
func LLRFigures(prefix string, systems []NamedLLR) ([]string, error) {
	if len(systems) == 0 {
		return nil, fmt.Errorf("llr figure: no results")
	}
	first := systems[0].Result
	var files []string
	for si, sp := range first.Splits {
		var series []plot.Series
		for _, s := range systems {
			r := s.Result
			if r.EncoderLayers != first.EncoderLayers || r.DecoderLayers != first.DecoderLayers {
				return nil, fmt.Errorf("llr figure: %s has %d+%d layers, %s %d+%d", s.Name, r.EncoderLayers, r.DecoderLayers,
					systems[0].Name, first.EncoderLayers, first.DecoderLayers)
			}
			if si >= len(r.Splits) || r.Splits[si].Name != sp.Name {
				return nil, fmt.Errorf("llr figure: %s has no split %q in position %d", s.Name, sp.Name, si+1)
			}
			x := make([]float64, len(r.Splits[si].Source))
			for i := range x {
				x[i] = float64(i + 1)
			}
			series = append(series,
				plot.Series{Name: s.Name + "-Src", X: x, Y: percent(r.Splits[si].Source)},
				plot.Series{Name: s.Name + "-Tgt", X: x, Y: percent(r.Splits[si].Target)})
		}
		series = append(series, majoritySeries(sp)...)
		path := prefix + "_" + sp.Name + ".png"
		title := fmt.Sprintf("Layer-wise language recognition, %s directions", sp.Name)
		xl := fmt.Sprintf("layer (L1-L%d encoder, L%d-L%d decoder)", first.EncoderLayers, first.EncoderLayers+1,
			first.EncoderLayers+first.DecoderLayers)
		if err := plot.Lines(path, title, xl, "accuracy (%)", series, plot.Size(800, 480)); err != nil {
			return nil, err
		}
		files = append(files, path)
	}
	return files, nil
}

// majoritySeries draws the majority-class baselines of a split (the first
// system's: systems probed on the same test set share them).
func majoritySeries(sp LLRSplitResult) []plot.Series {
	if len(sp.SourceMajority) == 0 {
		return nil
	}
	x := make([]float64, len(sp.SourceMajority))
	for i := range x {
		x[i] = float64(i + 1)
	}
	return []plot.Series{
		{Name: "majority-Src (" + sp.SourceMajorityLang + ")", X: x, Y: percent(sp.SourceMajority)},
		{Name: "majority-Tgt (" + sp.TargetMajorityLang + ")", X: x, Y: percent(sp.TargetMajority)},
	}
}

func percent(rs []Ratio) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = 100 * float64(r)
	}
	return out
}

// LLRMarkdown writes one table per split: rows are layers, columns the
// source and target accuracy of every system.
func LLRMarkdown(w io.Writer, systems []NamedLLR) error {
	bw := &errWriter{w: w}
	if len(systems) == 0 {
		return nil
	}
	first := systems[0].Result
	names := first.LayerNames()
	for si, sp := range first.Splits {
		bw.printf("\nLLR accuracy (%%) on %s directions (L1-L%d encoder, L%d-L%d decoder)\n\n",
			sp.Name, first.EncoderLayers, first.EncoderLayers+1, len(names))
		hasMaj := len(sp.SourceMajority) == len(names)
		if hasMaj {
			bw.printf("Majority-class baseline (a constant classifier's accuracy: the most frequent label's share, "+
				"directions weighted equally as in the accuracies): source %s, target %s.\n\n", sp.SourceMajorityLang, sp.TargetMajorityLang)
		}
		bw.printf("| layer |")
		if hasMaj {
			bw.printf(" majority-Src | majority-Tgt |")
		}
		for _, s := range systems {
			bw.printf(" %s-Src | %s-Tgt |", s.Name, s.Name)
		}
		bw.printf("\n|---|")
		if hasMaj {
			bw.printf("---:|---:|")
		}
		for range systems {
			bw.printf("---:|---:|")
		}
		bw.printf("\n")
		for l, n := range names {
			bw.printf("| %s |", n)
			if hasMaj {
				bw.printf(" %s | %s |", fmtPct(sp.SourceMajority[l]), fmtPct(sp.TargetMajority[l]))
			}
			for _, s := range systems {
				if si >= len(s.Result.Splits) || l >= len(s.Result.Splits[si].Source) {
					bw.printf(" | |")
					continue
				}
				sr := s.Result.Splits[si]
				bw.printf(" %s | %s |", fmtPct(sr.Source[l]), fmtPct(sr.Target[l]))
			}
			bw.printf("\n")
		}
		if len(systems) == 2 {
			llrDiffMarkdown(bw, systems[0], systems[1], sp.Name, names)
		}
	}
	return bw.err
}

// llrDiffMarkdown writes the second system's accuracy minus the first's
// per layer with its 95% interval (CompareLLR), or says why there is none.
func llrDiffMarkdown(bw *errWriter, base, sys NamedLLR, split string, names []string) {
	c, err := CompareLLR(base.Result, sys.Result, split, metrics.BootstrapOptions{})
	if err != nil {
		bw.printf("\n(No intervals for %s − %s: %v.)\n", sys.Name, base.Name, err)
		return
	}
	bw.printf("\n%s − %s on %s directions, percentage points (%s of each direction's sentences, seed %d; 95%% interval):\n\n",
		sys.Name, base.Name, split, c.Test(), c.Seed)
	bw.printf("| layer | Δ Src (95%% CI) | p Src | Δ Tgt (95%% CI) | p Tgt |\n|---|---:|---:|---:|---:|\n")
	for l, n := range names {
		s, t := c.Layers[l].Source, c.Layers[l].Target
		bw.printf("| %s | %s | %s | %s | %s |\n", n, fmtDiff(s), fmtP(s.PValue), fmtDiff(t), fmtP(t.PValue))
	}
}

func fmtDiff(d metrics.Difference) string {
	if math.IsNaN(d.Value) {
		return "–"
	}
	return fmt.Sprintf("%+.1f (%+.1f to %+.1f)", 100*d.Value, 100*d.Lower, 100*d.Upper)
}

func fmtP(p float64) string {
	if math.IsNaN(p) {
		return "–"
	}
	return fmt.Sprintf("%.4f", p)
}

func fmtPct(r Ratio) string {
	if math.IsNaN(float64(r)) {
		return "–"
	}
	return fmt.Sprintf("%.1f", 100*float64(r))
}
