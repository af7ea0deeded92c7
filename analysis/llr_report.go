package analysis

import (
	"fmt"
	"io"
	"math"
)

// NamedLLR labels an LLR result in figures and tables (e.g. "Pre", "Post").
type NamedLLR struct {
	Name   string
	Result *LLRResult
}

// LLRFigure draws the paper's Figure 2: one panel per test split, with the
// source- and target-language accuracy (%) of every system along the
// layers L1..L(E+D); a dashed line separates encoder from decoder.
func LLRFigure(path string, systems []NamedLLR) error {
	if len(systems) == 0 {
		return fmt.Errorf("llr figure: no results")
	}
	first := systems[0].Result
	var panels []Panel
	for si, sp := range first.Splits {
		pn := Panel{Title: sp.Name, YLabel: "accuracy (%)", X: first.LayerNames(), Divider: first.EncoderLayers, YMin: 0, YMax: 100}
		for _, s := range systems {
			r := s.Result
			if r.EncoderLayers != first.EncoderLayers || r.DecoderLayers != first.DecoderLayers {
				return fmt.Errorf("llr figure: %s has %d+%d layers, %s %d+%d", s.Name, r.EncoderLayers, r.DecoderLayers,
					systems[0].Name, first.EncoderLayers, first.DecoderLayers)
			}
			if si >= len(r.Splits) || r.Splits[si].Name != sp.Name {
				return fmt.Errorf("llr figure: %s has no split %q in position %d", s.Name, sp.Name, si+1)
			}
			pn.Series = append(pn.Series,
				Series{Name: s.Name + "-Src", Values: percent(r.Splits[si].Source)},
				Series{Name: s.Name + "-Tgt", Values: percent(r.Splits[si].Target), Dashed: true})
		}
		panels = append(panels, pn)
	}
	return LinePanels(path, panels)
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
		bw.printf("\nLLR accuracy (%%) on %s directions (L1-L%d encoder, L%d-L%d decoder)\n\n| layer |",
			sp.Name, first.EncoderLayers, first.EncoderLayers+1, len(names))
		for _, s := range systems {
			bw.printf(" %s-Src | %s-Tgt |", s.Name, s.Name)
		}
		bw.printf("\n|---|")
		for range systems {
			bw.printf("---:|---:|")
		}
		bw.printf("\n")
		for l, n := range names {
			bw.printf("| %s |", n)
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
	}
	return bw.err
}

func fmtPct(r Ratio) string {
	if math.IsNaN(float64(r)) {
		return "–"
	}
	return fmt.Sprintf("%.1f", 100*float64(r))
}
