package analysis

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/strata-nmt/strata/internal/atomicfile"
	"github.com/strata-nmt/strata/metrics"
	"github.com/strata-nmt/strata/plot"
)

// DifficultyReport is what `strata analyze difficulty` writes to
// difficulty.json: the buckets of test lines by difficulty and each
// system's BLEU in each.
type DifficultyReport struct {
	Checkpoints []string `json:"checkpoints,omitempty"`
	// Scores names the difficulty.tsv the ranking was read from, when it
	// was not computed from checkpoints.
	Scores   string             `json:"scores,omitempty"`
	Tokenize string             `json:"tokenize"`
	PerToken bool               `json:"per_token"`
	Buckets  []DifficultyBucket `json:"buckets"`
	Systems  []DifficultySystem `json:"systems"`
	// Test names the test behind every system's gains (bucketGains).
	Test string `json:"test"`
}

// DifficultyBucket is one bucket of test lines.
type DifficultyBucket struct {
	Name     string  `json:"name"`
	Lines    int     `json:"lines"`
	MinScore float64 `json:"min_score"`
	MaxScore float64 `json:"max_score"`
}

// DifficultySystem is one system's BLEU per bucket and, for every system
// after the first (the baseline), its gain over the baseline per bucket and
// the hardest bucket's gain minus the easiest's, each tested.
type DifficultySystem struct {
	Name   string     `json:"name"`
	Path   string     `json:"hypotheses"`
	BLEU   []float64  `json:"bleu"`
	Gains  []GainTest `json:"gains,omitempty"`
	Spread *GainTest  `json:"hardest_minus_easiest,omitempty"`
}

// HypothesisFile is one system's hypotheses, named.
type HypothesisFile struct {
	Name, Path string
	Hyps       []string
}

// BuildDifficultyReport scores each system's hypotheses in each bucket of
// lines (Buckets over the difficulty scores) and tests every later system's
// gains over the first (bucketGains, sacreBLEU's default resamples).
func BuildDifficultyReport(bleu *metrics.BLEU, systems []HypothesisFile, refs []string, buckets [][]int, scores []float64) (*DifficultyReport, error) {
	samples, seed := metrics.BootstrapOptions{}.Resolve()
	rep := &DifficultyReport{Test: fmt.Sprintf("two-sided paired bootstrap on each bucket's lines, %d resamples, seed %d + bucket index (0 for the easiest)", samples, seed)}
	for b, lines := range buckets {
		lo, hi := scores[lines[0]], scores[lines[len(lines)-1]]
		rep.Buckets = append(rep.Buckets, DifficultyBucket{Name: BucketName(b, len(buckets)), Lines: len(lines), MinScore: lo, MaxScore: hi})
	}
	for _, s := range systems {
		bl, err := BucketBLEU(bleu, s.Hyps, refs, buckets)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Path, err)
		}
		ds := DifficultySystem{Name: s.Name, Path: s.Path}
		for _, x := range bl {
			ds.BLEU = append(ds.BLEU, x.Score)
		}
		if len(rep.Systems) > 0 {
			ds.Gains, ds.Spread, err = bucketGains(bleu, systems[0].Hyps, s.Hyps, refs, buckets, samples, seed)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.Path, err)
			}
		}
		rep.Systems = append(rep.Systems, ds)
	}
	return rep, nil
}

// WriteDifficulty writes difficulty.tsv (line, score, mean loss, bucket),
// difficulty.json and difficulty.png into dir, and the Markdown table to w.
func WriteDifficulty(w io.Writer, dir string, rep *DifficultyReport, buckets [][]int, scores, mean []float64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	bucketOf := make([]string, len(scores))
	for b, lines := range buckets {
		for _, i := range lines {
			bucketOf[i] = rep.Buckets[b].Name
		}
	}
	err := atomicfile.WriteWith(filepath.Join(dir, "difficulty.tsv"), func(fw io.Writer) error {
		bw := bufio.NewWriter(fw)
		fmt.Fprintln(bw, difficultyHeader)
		for i, s := range scores {
			fmt.Fprintf(bw, "%d\t%s\t%s\t%s\n", i+1, formatLoss(s), formatLoss(mean[i]), bucketOf[i])
		}
		return bw.Flush()
	})
	if err != nil {
		return err
	}
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, "difficulty.json"), append(js, '\n')); err != nil {
		return err
	}
	if err := difficultyPlot(filepath.Join(dir, "difficulty.png"), rep); err != nil {
		return err
	}
	fmt.Fprint(w, difficultyTable(rep))
	return nil
}

// difficultyTable is the Markdown table: one row per bucket, BLEU per
// system, and each later system's gain over the first with its interval
// and p; then, per later system, the hardest bucket's gain minus the
// easiest's.
func difficultyTable(rep *DifficultyReport) string {
	var b strings.Builder
	b.WriteString("| bucket | lines | difficulty |")
	for k, s := range rep.Systems {
		if k == 0 {
			fmt.Fprintf(&b, " %s BLEU |", s.Name)
		} else {
			fmt.Fprintf(&b, " %s BLEU (Δ, 95%% CI, p) |", s.Name)
		}
	}
	b.WriteString("\n|---|---:|---|" + strings.Repeat("---:|", len(rep.Systems)) + "\n")
	for i, bk := range rep.Buckets {
		fmt.Fprintf(&b, "| %s | %d | %.2f–%.2f |", bk.Name, bk.Lines, bk.MinScore, bk.MaxScore)
		for k, s := range rep.Systems {
			if k == 0 {
				fmt.Fprintf(&b, " %.2f |", s.BLEU[i])
			} else if i < len(s.Gains) {
				g := s.Gains[i]
				fmt.Fprintf(&b, " %.2f (%+.2f, %+.2f to %+.2f, p = %.3f) |", s.BLEU[i], g.Gain, g.Lower, g.Upper, g.PValue)
			} else { // a report written before the gains were tested
				fmt.Fprintf(&b, " %.2f (%+.2f) |", s.BLEU[i], s.BLEU[i]-rep.Systems[0].BLEU[i])
			}
		}
		b.WriteString("\n")
	}
	n := len(rep.Buckets)
	for _, s := range rep.Systems[1:] {
		if g := s.Spread; g != nil {
			fmt.Fprintf(&b, "\n%s: gain in %s minus gain in %s %+.2f (95%% CI %+.2f to %+.2f, p = %.3f); %s.\n",
				s.Name, rep.Buckets[n-1].Name, rep.Buckets[0].Name, g.Gain, g.Lower, g.Upper, g.PValue, growsWord(s))
		}
	}
	if rep.Test != "" && len(rep.Systems) > 1 {
		fmt.Fprintf(&b, "\nTest: %s.\n", rep.Test)
	}
	return b.String()
}

// GainGrows says whether a system's gain over the baseline grows with
// difficulty, as the MSC paper reads its Figure 3 and as a test can show
// it: the hardest bucket's gain is positive at p < 0.05, and the 95%
// interval of that gain minus the easiest bucket's lies above zero.
func GainGrows(s DifficultySystem) bool {
	if len(s.Gains) == 0 || s.Spread == nil {
		return false
	}
	hard := s.Gains[len(s.Gains)-1]
	return hard.Gain > 0 && hard.PValue < 0.05 && s.Spread.Lower > 0
}

func growsWord(s DifficultySystem) string {
	if GainGrows(s) {
		return "the gain grows with difficulty (the hardest bucket's gain positive at p < 0.05, the difference's interval above zero)"
	}
	return "no evidence that the gain grows with difficulty (that needs the hardest bucket's gain positive at p < 0.05 and the difference's interval above zero)"
}

// difficultyPlot draws the paper's Figure 3: per bucket, each system's BLEU
// gain over the baseline (the first system); BLEU itself for one system.
func difficultyPlot(path string, rep *DifficultyReport) error {
	labels := make([]string, len(rep.Buckets))
	for i, bk := range rep.Buckets {
		labels[i] = bk.Name
	}
	base := rep.Systems[0]
	if len(rep.Systems) == 1 {
		return plot.Bars(path, "BLEU by translation difficulty", labels,
			[]plot.Series{{Name: base.Name, Y: base.BLEU}}, plot.AxisLabels("difficulty", "BLEU"))
	}
	var groups []plot.Series
	for _, s := range rep.Systems[1:] {
		g := plot.Series{Name: s.Name}
		for i := range labels {
			g.Y = append(g.Y, s.BLEU[i]-base.BLEU[i])
		}
		groups = append(groups, g)
	}
	for i := range labels {
		labels[i] = fmt.Sprintf("%s (%.2f)", labels[i], base.BLEU[i])
	}
	return plot.Bars(path, "BLEU gain over "+base.Name+" by translation difficulty", labels, groups,
		plot.AxisLabels("difficulty (baseline BLEU)", "Δ BLEU"))
}
