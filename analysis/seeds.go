package analysis

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"

	"github.com/strata-nmt/strata/metrics"
)

// DefaultMinSignificant is how many seeds must show p < SignificanceLevel
// for a contrast to be confirmed (the zero-shot study's rule: 2 of 3).
const DefaultMinSignificant = 2

// SeedRun is one seed of a comparison of two systems: both evaluations
// and the test of the system against the baseline (CompareMatrices).
// The file names only label errors.
type SeedRun struct {
	BaselineFile, SystemFile string
	Baseline, System         *MatrixResult
	Sig                      *Significance
}

// MeanSD is a mean over seeds with its sample standard deviation (n-1).
type MeanSD struct {
	Seeds int     `json:"seeds"`
	Mean  float64 `json:"mean"`
	SD    float64 `json:"sd"`
}

// SeedSystem is one system's averages over seeds; a field is nil when
// the test set has no direction of that kind.
type SeedSystem struct {
	Name              string  `json:"name"`
	ZeroShotBLEU      *MeanSD `json:"zero_shot_bleu,omitempty"`
	ZeroShotCHRF      *MeanSD `json:"zero_shot_chrf,omitempty"`
	ZeroShotOffTarget *MeanSD `json:"zero_shot_off_target,omitempty"`
	// ZeroShotOffTargetOnRef is the off-target rate over the lines whose
	// reference the identifier assigns to the target language (when
	// every seed's evaluation has the references' language ID).
	ZeroShotOffTargetOnRef *MeanSD `json:"zero_shot_off_target_on_ref,omitempty"`
	SupervisedBLEU         *MeanSD `json:"supervised_bleu,omitempty"`
}

// Verdicts of a contrast under the seed rule.
const (
	Confirmed    = "confirmed"
	NotConfirmed = "not confirmed"
)

// SeedContrast is one averaged test repeated on every seed: the system
// minus the baseline (off-target rates as fractions), and the verdict.
type SeedContrast struct {
	Name string `json:"name"`
	// LowerIsBetter: a negative difference favours the system.
	LowerIsBetter bool                 `json:"lower_is_better"`
	Seeds         []metrics.Difference `json:"seeds"`
	Significant   int                  `json:"significant"`
	Verdict       string               `json:"verdict"`
	// Favours is "system better" or "system worse" when confirmed.
	Favours string `json:"favours,omitempty"`
}

// SeedStudy is a two-system comparison over seeds.
type SeedStudy struct {
	Baseline       string       `json:"baseline"`
	System         string       `json:"system"`
	Test           string       `json:"test"`
	Seeds          int          `json:"seeds"`
	MinSignificant int          `json:"min_significant"`
	Systems        []SeedSystem `json:"systems"`
	// ReferenceOffTarget is the share of the zero-shot references the
	// identifier assigns to another language: its own error, against
	// which the off-target rates are read (nil without the references'
	// language ID). Every seed has the same references.
	ReferenceOffTarget *float64       `json:"zero_shot_reference_off_target,omitempty"`
	Contrasts          []SeedContrast `json:"contrasts"`
}

// CompareSeeds summarizes runs (one per seed, all on the same test set and
// directions): each system's mean and sd over seeds, and each averaged
// contrast (zero-shot BLEU, zero-shot off-target when every seed tested
// it, supervised BLEU) with the verdict of the rule fixed before the runs:
// confirmed when the difference has the same sign on every seed and
// p < SignificanceLevel on at least minSignificant seeds.
func CompareSeeds(baseName, sysName string, runs []SeedRun, minSignificant int) (*SeedStudy, error) {
	if len(runs) < 2 {
		return nil, fmt.Errorf("%d seed(s) given: a comparison over seeds needs at least 2", len(runs))
	}
	if minSignificant < 1 || minSignificant > len(runs) {
		return nil, fmt.Errorf("minimum significant seeds %d: want 1 to %d (the seeds given)", minSignificant, len(runs))
	}
	if err := sameEvaluations(runs); err != nil {
		return nil, err
	}
	st := &SeedStudy{Baseline: baseName, System: sysName, Test: runs[0].Sig.Test, Seeds: len(runs), MinSignificant: minSignificant}
	st.Systems = []SeedSystem{
		seedSystem(baseName, runs, func(r SeedRun) *MatrixResult { return r.Baseline }),
		seedSystem(sysName, runs, func(r SeedRun) *MatrixResult { return r.System }),
	}
	if ref := runs[0].Baseline.ZeroShot.RefLID; ref != nil && runs[0].Baseline.ZeroShot.Directions > 0 {
		st.ReferenceOffTarget = &ref.OffTarget
	}
	pick := []struct {
		name  string
		lower bool
		diff  func(*Significance) *metrics.Difference
	}{
		{"zero-shot BLEU", false, func(s *Significance) *metrics.Difference {
			if a := s.ZeroShotAverage; a != nil {
				return &a.Diff
			}
			return nil
		}},
		{"zero-shot off-target", true, func(s *Significance) *metrics.Difference {
			if a := s.ZeroShotAverage; a != nil && a.HasOffTarget {
				return &a.OffTargetDiff
			}
			return nil
		}},
		{"supervised BLEU", false, func(s *Significance) *metrics.Difference {
			if a := s.SupervisedAverage; a != nil {
				return &a.Diff
			}
			return nil
		}},
	}
	for _, p := range pick {
		var ds []metrics.Difference
		for _, r := range runs {
			if d := p.diff(r.Sig); d != nil {
				ds = append(ds, *d)
			}
		}
		if len(ds) == len(runs) {
			st.Contrasts = append(st.Contrasts, judge(p.name, p.lower, ds, minSignificant))
		}
	}
	return st, nil
}

// judge applies the seed rule to one contrast's per-seed differences.
func judge(name string, lowerIsBetter bool, ds []metrics.Difference, minSignificant int) SeedContrast {
	c := SeedContrast{Name: name, LowerIsBetter: lowerIsBetter, Seeds: ds, Verdict: NotConfirmed}
	pos, neg := 0, 0
	for _, d := range ds {
		switch {
		case d.Value > 0:
			pos++
		case d.Value < 0:
			neg++
		}
		if d.PValue < SignificanceLevel && d.Value != 0 {
			c.Significant++
		}
	}
	agree := pos == len(ds) || neg == len(ds)
	if !agree || c.Significant < minSignificant {
		return c
	}
	c.Verdict = Confirmed
	if (pos > 0) != lowerIsBetter {
		c.Favours = "system better"
	} else {
		c.Favours = "system worse"
	}
	return c
}

func seedSystem(name string, runs []SeedRun, get func(SeedRun) *MatrixResult) SeedSystem {
	s := SeedSystem{Name: name}
	var zb, zc, zo, zr, sb []float64
	for _, r := range runs {
		m := get(r)
		if m.ZeroShot.Directions > 0 {
			zb, zc, zo = append(zb, m.ZeroShot.BLEU), append(zc, m.ZeroShot.CHRF), append(zo, m.ZeroShot.OffTarget)
			if ref := m.ZeroShot.RefLID; ref != nil {
				zr = append(zr, ref.HypOffTarget)
			}
		}
		if m.Supervised.Directions > 0 {
			sb = append(sb, m.Supervised.BLEU)
		}
	}
	if len(zb) == len(runs) {
		s.ZeroShotBLEU, s.ZeroShotCHRF, s.ZeroShotOffTarget = meanSD(zb), meanSD(zc), meanSD(zo)
	}
	if len(zr) == len(runs) {
		s.ZeroShotOffTargetOnRef = meanSD(zr)
	}
	if len(sb) == len(runs) {
		s.SupervisedBLEU = meanSD(sb)
	}
	return s
}

// meanSD is the mean and sample standard deviation of xs (at least 2).
func meanSD(xs []float64) *MeanSD {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	m := sum / float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return &MeanSD{Seeds: len(xs), Mean: m, SD: math.Sqrt(ss / float64(len(xs)-1))}
}

// sameEvaluations checks that every evaluation of every seed covers the
// directions of the first seed's baseline, on references of the same
// names and line counts: averages over different tests cannot be pooled.
func sameEvaluations(runs []SeedRun) error {
	for i, r := range runs {
		if r.Baseline == nil || r.System == nil || r.Sig == nil {
			return fmt.Errorf("seed %d: missing evaluation or significance test", i+1)
		}
	}
	ref, refFile := runs[0].Baseline, runs[0].BaselineFile
	for i, r := range runs {
		for _, e := range []struct {
			file string
			m    *MatrixResult
		}{{r.BaselineFile, r.Baseline}, {r.SystemFile, r.System}} {
			if diff := evaluationDiff(ref, e.m); diff != "" {
				return fmt.Errorf("seed %d: %s differs from seed 1's baseline %s: %s; compare seeds on the same test set and directions",
					i+1, e.file, refFile, diff)
			}
		}
	}
	return nil
}

// evaluationDiff says how m's test differs from want's (test set name,
// then directions: part, direction, kind, lines, reference file name), or
// "" when it does not.
func evaluationDiff(want, m *MatrixResult) string {
	if a, b := filepath.Base(want.TestSet), filepath.Base(m.TestSet); a != b {
		return fmt.Sprintf("test set %s, not %s", b, a)
	}
	w, g := directionKeys(want), directionKeys(m)
	if k := firstMissing(w, g); k != "" {
		return "it lacks " + k
	}
	if k := firstMissing(g, w); k != "" {
		return "it has " + k + ", which the baseline lacks"
	}
	return ""
}

func directionKeys(m *MatrixResult) map[string]bool {
	out := map[string]bool{}
	for _, d := range m.Directions {
		p := ""
		if d.Part != "" {
			p = d.Part + "/"
		}
		out[fmt.Sprintf("%s%s (%s, %d lines of %s)", p, d.Direction, d.Kind, d.Lines, filepath.Base(d.Ref))] = true
	}
	return out
}

// firstMissing is the first key of a (sorted) that b lacks, or "".
func firstMissing(a, b map[string]bool) string {
	var ks []string
	for k := range a {
		if !b[k] {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return ""
	}
	sort.Strings(ks)
	return ks[0]
}
