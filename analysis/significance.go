package analysis

import (
	"fmt"
	"math"
	"os"
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
// SignificanceLevel. Equal scores never are: the two-sided p-value is 1
// for them, but sacreBLEU's gives two identical outputs its smallest
// value, 1/(samples+1).
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
	System    string `json:"system"`
	Baseline  string `json:"baseline"`
	Signature string `json:"signature"`
	Samples   int    `json:"samples"`
	Seed      uint64 `json:"seed"`
	// Method is the p-value's definition and Test names the test, e.g.
	// "two-sided paired bootstrap, 1000 resamples".
	Method     metrics.PValueMethod `json:"p_value_method"`
	Test       string               `json:"test"`
	Tests      []DirectionTest      `json:"directions"`
	ZeroShot   SignificanceCount    `json:"zero_shot"`
	Supervised SignificanceCount    `json:"supervised"`
	// ZeroShotAverage and SupervisedAverage test the difference of the
	// averages over each kind of direction (nil where there is none).
	ZeroShotAverage   *AverageTest `json:"zero_shot_average,omitempty"`
	SupervisedAverage *AverageTest `json:"supervised_average,omitempty"`
}

// AverageTest is the averaged paired bootstrap (metrics.AveragePairedBootstrap)
// over the directions of one kind: the difference of the mean BLEU and,
// when a language identifier was given, of the mean off-target rate, each
// with its 95% interval.
type AverageTest struct {
	Directions int                `json:"directions"`
	Baseline   float64            `json:"baseline_bleu"`
	System     float64            `json:"system_bleu"`
	Diff       metrics.Difference `json:"bleu_difference"`
	// HasOffTarget: the off-target fields are set.
	HasOffTarget      bool               `json:"has_off_target"`
	BaselineOffTarget float64            `json:"baseline_off_target"`
	SystemOffTarget   float64            `json:"system_off_target"`
	OffTargetDiff     metrics.Difference `json:"off_target_difference"`
	// RefOffTarget is the identifier's error rate on the references (the
	// mean over the directions), when the matrices record it.
	RefOffTarget *float64 `json:"reference_off_target,omitempty"`
}

// HypDirOf is where eval-matrix kept the hypotheses of a matrix.json.
func HypDirOf(matrixJSON string) string { return filepath.Join(filepath.Dir(matrixJSON), "hyp") }

// CompareMatrices runs the paired bootstrap (metrics.PairedBootstrap on
// sacreBLEU's resamples, BLEU with the study's tokenizer per target, the
// p-value opt asks for) for every direction of sys
// against the same direction of base, on the hypotheses eval-matrix kept in
// sysHyp and baseHyp, and the averaged one over the zero-shot and over the
// supervised directions. Both must have evaluated the same directions on
// the same references. With det (the identifier eval-matrix used), the
// averages' off-target rates are tested too.
func CompareMatrices(sysName string, sys *MatrixResult, sysHyp, baseName string, base *MatrixResult, baseHyp string,
	opt metrics.BootstrapOptions, det Identifier) (*Significance, error) {
	baseRows := map[string]DirectionResult{}
	for _, d := range base.Directions {
		baseRows[d.Part+"/"+d.String()] = d
	}
	if len(baseRows) != len(sys.Directions) {
		return nil, fmt.Errorf("%s has %d directions, baseline %s %d: compare evaluations of the same directions",
			sysName, len(sys.Directions), baseName, len(baseRows))
	}
	out := &Significance{System: sysName, Baseline: baseName}
	strata := map[string][]metrics.PairedStratum{}
	for _, d := range sys.Directions {
		b, ok := baseRows[d.Part+"/"+d.String()]
		if !ok {
			return nil, fmt.Errorf("baseline %s has no direction %s %s", baseName, d.Part, d.Direction)
		}
		st, err := pairedStratum(sys, d, sysHyp, base, b, baseHyp, det)
		if err != nil {
			return nil, fmt.Errorf("%s vs %s, %s: %w", sysName, baseName, d.Direction, err)
		}
		strata[d.Kind] = append(strata[d.Kind], st)
		t, sig, err := testDirection(d, st, opt)
		if err != nil {
			return nil, fmt.Errorf("%s vs %s, %s: %w", sysName, baseName, d.Direction, err)
		}
		out.Tests = append(out.Tests, t)
		out.Signature = sig.Signature
		out.Samples, out.Seed, out.Method, out.Test = sig.Samples, sig.Seed, sig.Method, sig.Test()
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
	var err error
	if out.ZeroShotAverage, err = averageTest(strata[ZeroShot], opt, sys.ZeroShot.RefLID); err != nil {
		return nil, fmt.Errorf("%s vs %s, zero-shot average: %w", sysName, baseName, err)
	}
	if out.SupervisedAverage, err = averageTest(strata[Supervised], opt, sys.Supervised.RefLID); err != nil {
		return nil, fmt.Errorf("%s vs %s, supervised average: %w", sysName, baseName, err)
	}
	return out, nil
}

// pairedStratum reads one direction's references and both systems'
// hypotheses, with their off-target flags when det is given; the flags
// must reproduce the off-target rates in the matrices.
func pairedStratum(sys *MatrixResult, d DirectionResult, sysHyp string, base *MatrixResult, b DirectionResult, baseHyp string,
	det Identifier) (metrics.PairedStratum, error) {
	refs, hs, hb, err := pairedInputs(sys, d, sysHyp, base, b, baseHyp)
	if err != nil {
		return metrics.PairedStratum{}, err
	}
	bleu, err := metrics.NewBLEU(metrics.BLEUOptions{Tokenize: BLEUTokenizer(d.Tgt)})
	if err != nil {
		return metrics.PairedStratum{}, err
	}
	st := metrics.PairedStratum{Metric: bleu, Baseline: hb, System: hs, Refs: [][]string{refs}}
	if det == nil {
		return st, nil
	}
	st.BaselineFlag, st.SystemFlag = OffTargetFlags(hb, d.Tgt, det), OffTargetFlags(hs, d.Tgt, det)
	if err := sameRate(st.SystemFlag, d.OffTarget); err != nil {
		return st, err
	}
	return st, sameRate(st.BaselineFlag, b.OffTarget)
}

// sameRate checks recomputed off-target flags against a matrix's rate: a
// different identifier would test numbers the tables do not show.
func sameRate(flags []bool, want float64) error {
	c := 0
	for _, f := range flags {
		if f {
			c++
		}
	}
	if got := float64(c) / float64(len(flags)); math.Abs(got-want) > 1e-9 {
		return fmt.Errorf("the language identifier gives an off-target rate of %.4f, eval-matrix recorded %.4f: "+
			"give the identifier it used (matrix.json's \"detector\")", got, want)
	}
	return nil
}

func testDirection(d DirectionResult, st metrics.PairedStratum, opt metrics.BootstrapOptions) (DirectionTest, metrics.PairedResult, error) {
	r, err := metrics.PairedBootstrap(st.Metric, st.Baseline, st.System, st.Refs, opt)
	if err != nil {
		return DirectionTest{}, metrics.PairedResult{}, err
	}
	t := DirectionTest{Direction: d.Direction, Kind: d.Kind, Part: d.Part, Baseline: r.Baseline.Score, System: r.System.Score,
		CI: r.System.CI, PValue: r.PValue}
	return t, r, nil
}

// averageTest runs the averaged paired bootstrap over strata (nil when
// there are none).
func averageTest(strata []metrics.PairedStratum, opt metrics.BootstrapOptions, ref *RefLID) (*AverageTest, error) {
	if len(strata) == 0 {
		return nil, nil
	}
	r, err := metrics.AveragePairedBootstrap(strata, opt)
	if err != nil {
		return nil, err
	}
	a := &AverageTest{Directions: len(strata), Baseline: r.Baseline.Score, System: r.System.Score, Diff: r.Diff, HasOffTarget: r.HasRate}
	if r.HasRate {
		a.BaselineOffTarget, a.SystemOffTarget, a.OffTargetDiff = r.BaselineRate.Score, r.SystemRate.Score, r.RateDiff
		if ref != nil {
			v := ref.OffTarget
			a.RefOffTarget = &v
		}
	}
	return a, nil
}

// partDir is the directory of test part name (the test set's own for an
// n-way set).
func (m *MatrixResult) partDir(name string) string {
	for _, p := range m.Parts {
		if p.Name == name {
			return p.Dir
		}
	}
	return m.TestSet
}

// pairedInputs reads the references and both systems' hypotheses of one
// direction, checking that both were scored on the same lines.
func pairedInputs(sys *MatrixResult, d DirectionResult, sysHyp string, base *MatrixResult, b DirectionResult, baseHyp string) (
	refs, hs, hb []string, err error) {
	ref, err := refFile(sys, d)
	if err != nil {
		return nil, nil, nil, err
	}
	if bref, err := refFile(base, b); err != nil || bref != ref || b.Lines != d.Lines {
		return nil, nil, nil, fmt.Errorf("the system was scored on %d lines of %s, the baseline on %d lines of %s",
			d.Lines, ref, b.Lines, bref)
	}
	if refs, err = firstLines(ref, d.Lines); err != nil {
		return nil, nil, nil, err
	}
	if hs, err = firstLines(filepath.Join(sysHyp, hypFile(d)), d.Lines); err != nil {
		return nil, nil, nil, err
	}
	if hb, err = firstLines(filepath.Join(baseHyp, hypFile(b)), d.Lines); err != nil {
		return nil, nil, nil, err
	}
	return refs, hs, hb, nil
}

// refFile is the row's reference; matrix.json files written before rows
// recorded it name only the n-way directory, where the file is found by
// language. A recorded reference that is no longer there (results copied
// to another machine, experiments/zero-shot/results) is looked for under
// the same name in the test set's directory as given to eval-matrix,
// usually relative to the repository (../shared/...).
func refFile(m *MatrixResult, d DirectionResult) (string, error) {
	if d.Ref != "" {
		if _, err := os.Stat(d.Ref); err != nil {
			if alt := filepath.Join(m.partDir(d.Part), filepath.Base(d.Ref)); alt != d.Ref {
				if _, err := os.Stat(alt); err == nil {
					return absPath(alt), nil
				}
			}
		}
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
