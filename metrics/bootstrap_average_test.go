package metrics

import (
	"math"
	"strings"
	"testing"
)

// With one test set the averaged test is PairedBootstrap: the same draws,
// intervals and p-value.
func TestAveragePairedBootstrapOneStratumIsPairedBootstrap(t *testing.T) {
	refs, a, b := synthCorpus(150, 0.5, 0.6)
	m, _ := NewBLEU(BLEUOptions{})
	want, err := PairedBootstrap(m, a, b, [][]string{refs}, BootstrapOptions{Samples: 200})
	if err != nil {
		t.Fatal(err)
	}
	got, err := AveragePairedBootstrap([]PairedStratum{{Metric: m, Baseline: a, System: b, Refs: [][]string{refs}}},
		BootstrapOptions{Samples: 200})
	if err != nil {
		t.Fatal(err)
	}
	if got.Baseline != want.Baseline || got.System != want.System || got.Diff.PValue != want.PValue {
		t.Errorf("one stratum: %+v %+v p %v, PairedBootstrap %+v %+v p %v", got.Baseline, got.System, got.Diff.PValue,
			want.Baseline, want.System, want.PValue)
	}
	if got.HasRate {
		t.Error("rates without flags")
	}
}

// The average is over strata, each resampled within itself: the mean of
// the per-set scores, and a flagged share that no draw can move when each
// set is all flagged or all clear.
func TestAveragePairedBootstrapStratifies(t *testing.T) {
	m, _ := NewBLEU(BLEUOptions{})
	r1, a1, b1 := synthCorpus(120, 0.3, 0.8)
	r2, a2, b2 := synthCorpus(40, 0.6, 0.5)
	all := func(n int, v bool) []bool {
		f := make([]bool, n)
		for i := range f {
			f[i] = v
		}
		return f
	}
	strata := []PairedStratum{
		{Metric: m, Baseline: a1, System: b1, Refs: [][]string{r1}, BaselineFlag: all(120, true), SystemFlag: all(120, false)},
		{Metric: m, Baseline: a2, System: b2, Refs: [][]string{r2}, BaselineFlag: all(40, false), SystemFlag: all(40, false)},
	}
	res, err := AveragePairedBootstrap(strata, BootstrapOptions{Samples: 300})
	if err != nil {
		t.Fatal(err)
	}
	var sumB, sumS float64
	for _, st := range strata {
		bb, _ := CorpusBLEU(st.Baseline, st.Refs, BLEUOptions{})
		sb, _ := CorpusBLEU(st.System, st.Refs, BLEUOptions{})
		sumB, sumS = sumB+bb.Score, sumS+sb.Score
	}
	if math.Abs(res.Baseline.Score-sumB/2) > 1e-9 || math.Abs(res.System.Score-sumS/2) > 1e-9 {
		t.Errorf("averages %v %v, want %v %v", res.Baseline.Score, res.System.Score, sumB/2, sumS/2)
	}
	if d := res.Diff; !(d.Lower < d.Value && d.Value < d.Upper) || d.Value <= 0 || d.PValue > 0.05 {
		t.Errorf("difference %+v: want a positive one inside its interval, significant", d)
	}
	// pooled resampling would move the baseline's share around 0.75;
	// within strata it is 1 in the first and 0 in the second, always 0.5.
	if !res.HasRate || res.BaselineRate.Lower != 0.5 || res.BaselineRate.Upper != 0.5 || res.RateDiff.Value != -0.5 ||
		res.RateDiff.Lower != -0.5 || res.RateDiff.Upper != -0.5 {
		t.Errorf("rates %+v %+v diff %+v", res.BaselineRate, res.SystemRate, res.RateDiff)
	}
}

func TestAveragePairedBootstrapIdenticalSystems(t *testing.T) {
	refs, a, _ := synthCorpus(80, 0.5, 0.5)
	m, _ := NewBLEU(BLEUOptions{})
	res, err := AveragePairedBootstrap([]PairedStratum{{Metric: m, Baseline: a, System: a, Refs: [][]string{refs}}}, BootstrapOptions{Samples: 100})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Diff; d.Value != 0 || d.Lower != 0 || d.Upper != 0 {
		t.Errorf("identical systems differ: %+v", d)
	}
}

func TestAveragePairedBootstrapErrors(t *testing.T) {
	m, _ := NewBLEU(BLEUOptions{})
	for _, c := range []struct {
		strata []PairedStratum
		want   string
	}{
		{nil, "at least one test set"},
		{[]PairedStratum{{Metric: m, Baseline: []string{"a"}, System: []string{"a", "b"}, Refs: [][]string{{"a", "b"}}}}, "1 segments but system has 2"},
		{[]PairedStratum{{Metric: m, Baseline: []string{}, System: []string{}, Refs: [][]string{{}}}}, "no segments"},
		{[]PairedStratum{{Metric: m, Baseline: []string{"a"}, System: []string{"a"}, Refs: [][]string{{"a"}}, SystemFlag: []bool{true}}}, "flags"},
	} {
		_, err := AveragePairedBootstrap(c.strata, BootstrapOptions{Samples: 10})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.strata, err, c.want)
		}
	}
}
