package analysis

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/strata-nmt/strata/internal/textio"
	"github.com/strata-nmt/strata/metrics"
)

// SignificanceLevel is the p-value below which a BLEU difference counts as
// significant (the paper marks "significantly higher BLEU" by Koehn 2004).
const SignificanceLevel = 0.05

// DirectionTest is a paired bootstrap test of one direction: a system
// against the baseline on the same lines.
type DirectionTest struct {
	Direction
	Kind     string  `json:"kind"`
	Part     string  `json:"test_part,omitempty"`
	Baseline float64 `json:"baseline_bleu"`
	System   float64 `json:"system_bleu"`
	// CI is the system's 95% bootstrap half-width (sacreBLEU's "±").
	CI     float64 `json:"system_ci"`
	PValue float64 `json:"p_value"`
}

// Significant says whether the difference is significant at
// SignificanceLevel. Equal scores never are: sacreBLEU's p-value counts
// resampled differences strictly above the real one, so two identical
// outputs get its smallest p-value, 1/(samples+1).
func (t DirectionTest) Significant() bool {
	return t.PValue < SignificanceLevel && t.System != t.Baseline
}

// Verdict is "better", "worse" (significantly, for the system) or "n.s.".
func (t DirectionTest) Verdict() string {
	switch {
	case !t.Significant():
		return "n.s."
	case t.System > t.Baseline:
		return "better"
	default:
		return "worse"
	}
}

// SignificanceCount tallies the verdicts of one kind of direction.
type SignificanceCount struct {
	Directions int `json:"directions"`
	Better     int `json:"better"`
	Worse      int `json:"worse"`
}

// Significance compares a system with a baseline direction by direction.
type Significance struct {
	System     string            `json:"system"`
	Baseline   string            `json:"baseline"`
	Signature  string            `json:"signature"`
	Samples    int               `json:"samples"`
	Seed       uint64            `json:"seed"`
	Tests      []DirectionTest   `json:"directions"`
	ZeroShot   SignificanceCount `json:"zero_shot"`
	Supervised SignificanceCount `json:"supervised"`
}

// HypDirOf is where eval-matrix kept the hypotheses of a matrix.json.
func HypDirOf(matrixJSON string) string { return filepath.Join(filepath.Dir(matrixJSON), "hyp") }

// CompareMatrices runs sacreBLEU's paired bootstrap (metrics.PairedBootstrap,
// BLEU with the study's tokenizer per target) for every direction of sys
// against the same direction of base, on the hypotheses eval-matrix kept in
// sysHyp and baseHyp. Both must have evaluated the same directions on the
// same references.
func CompareMatrices(sysName string, sys *MatrixResult, sysHyp, baseName string, base *MatrixResult, baseHyp string,
	opt metrics.BootstrapOptions) (*Significance, error) {
	baseRows := map[string]DirectionResult{}
	for _, d := range base.Directions {
		baseRows[d.Part+"/"+d.String()] = d
	}
	if len(baseRows) != len(sys.Directions) {
		return nil, fmt.Errorf("%s has %d directions, baseline %s %d: compare evaluations of the same directions",
			sysName, len(sys.Directions), baseName, len(baseRows))
	}
	out := &Significance{System: sysName, Baseline: baseName}
	for _, d := range sys.Directions {
		b, ok := baseRows[d.Part+"/"+d.String()]
		if !ok {
			return nil, fmt.Errorf("baseline %s has no direction %s %s", baseName, d.Part, d.Direction)
		}
		t, sig, err := testDirection(sys, d, sysHyp, base, b, baseHyp, opt)
		if err != nil {
			return nil, fmt.Errorf("%s vs %s, %s: %w", sysName, baseName, d.Direction, err)
		}
		out.Tests = append(out.Tests, t)
		out.Signature = sig.Signature
		out.Samples, out.Seed = sig.Samples, sig.Seed
		c := &out.Supervised
		if t.Kind == ZeroShot {
			c = &out.ZeroShot
		}
		c.Directions++
		switch t.Verdict() {
		case "better":
			c.Better++
		case "worse":
			c.Worse++
		}
	}
	return out, nil
}

func testDirection(sys *MatrixResult, d DirectionResult, sysHyp string, base *MatrixResult, b DirectionResult, baseHyp string,
	opt metrics.BootstrapOptions) (DirectionTest, metrics.PairedResult, error) {
	ref, err := refFile(sys, d)
	if err != nil {
		return DirectionTest{}, metrics.PairedResult{}, err
	}
	if bref, err := refFile(base, b); err != nil || bref != ref || b.Lines != d.Lines {
		return DirectionTest{}, metrics.PairedResult{}, fmt.Errorf("the system was scored on %d lines of %s, the baseline on %d lines of %s",
			d.Lines, ref, b.Lines, bref)
	}
	refs, err := firstLines(ref, d.Lines)
	if err != nil {
		return DirectionTest{}, metrics.PairedResult{}, err
	}
	hs, err := firstLines(filepath.Join(sysHyp, hypFile(d)), d.Lines)
	if err != nil {
		return DirectionTest{}, metrics.PairedResult{}, err
	}
	hb, err := firstLines(filepath.Join(baseHyp, hypFile(b)), d.Lines)
	if err != nil {
		return DirectionTest{}, metrics.PairedResult{}, err
	}
	bleu, err := metrics.NewBLEU(metrics.BLEUOptions{Tokenize: BLEUTokenizer(d.Tgt)})
	if err != nil {
		return DirectionTest{}, metrics.PairedResult{}, err
	}
	r, err := metrics.PairedBootstrap(bleu, hb, hs, [][]string{refs}, opt)
	if err != nil {
		return DirectionTest{}, metrics.PairedResult{}, err
	}
	t := DirectionTest{Direction: d.Direction, Kind: d.Kind, Part: d.Part, Baseline: r.Baseline.Score, System: r.System.Score,
		CI: r.System.CI, PValue: r.PValue}
	return t, r, nil
}

// refFile is the row's reference; matrix.json files written before rows
// recorded it name only the n-way directory, where the file is found by
// language.
func refFile(m *MatrixResult, d DirectionResult) (string, error) {
	if d.Ref != "" {
		return d.Ref, nil
	}
	found, err := ScanTestSet(m.TestSet)
	if err != nil || found[d.Tgt] == "" {
		return "", fmt.Errorf("matrix result without reference files and no %s file in %s (rerun eval-matrix)", d.Tgt, m.TestSet)
	}
	return absPath(found[d.Tgt]), nil
}

func hypFile(d DirectionResult) string {
	if d.Hyp != "" {
		return d.Hyp
	}
	return d.String() + ".txt"
}

// firstLines reads the first n lines of a file, which must have at least n.
func firstLines(path string, n int) ([]string, error) {
	ls, err := textio.ReadLines(path)
	if err != nil {
		return nil, err
	}
	if len(ls) < n {
		return nil, fmt.Errorf("%s has %d lines, want %d", path, len(ls), n)
	}
	return ls[:n], nil
}

// SignificanceMarkdown writes, for each comparison, the counts over
// zero-shot and supervised directions and the per-direction table.
func SignificanceMarkdown(w io.Writer, sigs []*Significance) error {
	bw := &errWriter{w: w}
	for _, s := range sigs {
		bw.printf("\n### %s against %s: paired bootstrap per direction\n\n", s.System, s.Baseline)
		bw.printf("%s (`%s`).\n\n", s.countSentence(), s.Signature)
		bw.printf("| direction | kind | %s BLEU | %s BLEU (95%% CI) | Δ | p | at p < %.2f |\n|---|---|---:|---:|---:|---:|---|\n",
			s.Baseline, s.System, SignificanceLevel)
		for _, t := range s.Tests {
			bw.printf("| %s | %s | %.2f | %.2f (± %.2f) | %+.2f | %.4f | %s |\n", t.Direction, t.Kind, t.Baseline, t.System, t.CI,
				t.System-t.Baseline, t.PValue, t.Verdict())
		}
	}
	return bw.err
}

func (s *Significance) countSentence() string {
	z, v := s.ZeroShot, s.Supervised
	return fmt.Sprintf("Zero-shot: %s significantly better than %s (p < %.2f) in %d of %d directions, significantly worse in %d, "+
		"not significant in %d; supervised: better in %d of %d, worse in %d",
		s.System, s.Baseline, SignificanceLevel, z.Better, z.Directions, z.Worse, z.Directions-z.Better-z.Worse,
		v.Better, v.Directions, v.Worse)
}

// summaryCell is the significance column of SummaryMarkdown.
func (s *Significance) summaryCell() string {
	z := s.ZeroShot
	return fmt.Sprintf("%d↑ %d↓ %d= of %d", z.Better, z.Worse, z.Directions-z.Better-z.Worse, z.Directions)
}
