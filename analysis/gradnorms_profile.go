package analysis

import (
	"fmt"
	"io"
	"strings"

	"github.com/strata-nmt/strata/internal/atomicfile"
)

// DepthProfile is one run's mean gradient norm at each encoder layer,
// Means[0] the lowest: the numbers behind `analyze grad-norms --profile`'s
// chart, written beside it so that a report can quote them.
type DepthProfile struct {
	Run   string
	Means []float64
}

// NewDepthProfile is the depth profile of one run's layers.
func NewDepthProfile(run string, layers []*LayerGradNorms) DepthProfile {
	p := DepthProfile{Run: run}
	for _, l := range layers {
		p.Means = append(p.Means, l.Mean())
	}
	return p
}

// WriteDepthProfiles writes the profiles as a TSV: a "layer" column (1 the
// lowest) and one column per run, empty where a run has fewer layers than
// the deepest.
func WriteDepthProfiles(path string, ps []DepthProfile) error {
	return atomicfile.WriteWith(path, func(w io.Writer) error {
		head := []string{"layer"}
		depth := 0
		for _, p := range ps {
			head = append(head, p.Run)
			depth = max(depth, len(p.Means))
		}
		if _, err := fmt.Fprintln(w, strings.Join(head, "\t")); err != nil {
			return err
		}
		for i := range depth {
			row := []string{fmt.Sprint(i + 1)}
			for _, p := range ps {
				cell := ""
				if i < len(p.Means) {
					cell = fmt.Sprintf("%.4g", p.Means[i])
				}
				row = append(row, cell)
			}
			if _, err := fmt.Fprintln(w, strings.Join(row, "\t")); err != nil {
				return err
			}
		}
		return nil
	})
}
