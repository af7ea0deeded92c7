package metrics

import (
	"encoding/json"
	"math"
	"testing"
)

// exactMatch is a test metric: the share of hypotheses equal to the
// reference, so a constructed corpus fixes every resample's difference.
type exactMatch struct{}

func (exactMatch) Name() string  { return "exact" }
func (exactMatch) StatsLen() int { return 2 }
func (exactMatch) ScoreStats(t []float64) float64 {
	return 100 * t[0] / t[1]
}
func (exactMatch) SegmentStats(hyps []string, refs [][]string) ([][]float64, string, error) {
	out := make([][]float64, len(hyps))
	for i, h := range hyps {
		out[i] = []float64{0, 1}
		if h == refs[0][i] {
			out[i][0] = 1
		}
	}
	return out, "exact", nil
}

// TestPairedPValueOnConstructedDifferences fixes both p-values on nine
// resampled differences, two of them (0 and −0.2) not of the real
// difference's sign: two-sided 2(1+2)/10 = 0.6; sacreBLEU's centres the
// absolute differences on their mean 5.1/9 and counts those more than
// 0.5 above it (none), 1/10.
func TestPairedPValueOnConstructedDifferences(t *testing.T) {
	d := []float64{1, 0.8, 0, -0.2, 0.6, 0.4, 0.5, 0.7, 0.9}
	if p := PairedPValue(TwoSided, 0.5, d); math.Abs(p-0.6) > 1e-12 {
		t.Errorf("two-sided p = %v, want 0.6", p)
	}
	if p := PairedPValue(SacreBLEU, 0.5, d); math.Abs(p-0.1) > 1e-12 {
		t.Errorf("sacreBLEU p = %v, want 0.1", p)
	}
	// the sign is the real difference's: a negative one counts the
	// non-negative resamples (7 of 9), and the p-value is capped at 1
	if p := PairedPValue(TwoSided, -0.5, d); p != 1 {
		t.Errorf("two-sided p for a negative difference = %v, want 1", p)
	}
	// no difference has no side: p = 1, however the resamples fall
	if p := PairedPValue(TwoSided, 0, []float64{1, 1, 1}); p != 1 {
		t.Errorf("two-sided p for no difference = %v, want 1", p)
	}
}

// TestPairedBootstrapPValueMethods runs the whole test on corpora whose
// every resample gives the same difference: a system right on every line
// against a baseline wrong on every one, and a system against itself.
func TestPairedBootstrapPValueMethods(t *testing.T) {
	refs := []string{"a", "b", "c", "d", "e"}
	wrong := []string{"x", "x", "x", "x", "x"}
	cases := []struct {
		name      string
		base, sys []string
		m         PValueMethod
		want      float64
	}{
		{"better, two-sided", wrong, refs, TwoSided, 2.0 / 1001},
		{"better, sacreBLEU", wrong, refs, SacreBLEU, 1.0 / 1001},
		{"worse, two-sided", refs, wrong, TwoSided, 2.0 / 1001},
		{"itself, two-sided", refs, refs, TwoSided, 1},
		{"itself, sacreBLEU", refs, refs, SacreBLEU, 1.0 / 1001},
	}
	for _, c := range cases {
		r, err := PairedBootstrap(exactMatch{}, c.base, c.sys, [][]string{refs}, BootstrapOptions{PValue: c.m})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.PValue-c.want) > 1e-15 || r.Method != c.m {
			t.Errorf("%s: p = %v (%v), want %v", c.name, r.PValue, r.Method, c.want)
		}
	}
	r, _ := PairedBootstrap(exactMatch{}, wrong, refs, [][]string{refs}, BootstrapOptions{})
	if got := r.Test(); got != "two-sided paired bootstrap, 1000 resamples" {
		t.Errorf("default test %q", got)
	}
}

func TestPValueMethodNames(t *testing.T) {
	for _, m := range []PValueMethod{TwoSided, SacreBLEU} {
		got, err := ParsePValueMethod(m.String())
		if err != nil || got != m {
			t.Errorf("%v: %v %v", m, got, err)
		}
		b, _ := json.Marshal(m)
		var back PValueMethod
		if err := json.Unmarshal(b, &back); err != nil || back != m {
			t.Errorf("JSON %s: %v %v", b, back, err)
		}
	}
	if _, err := ParsePValueMethod("one-sided"); err == nil {
		t.Error("unknown method accepted")
	}
}
