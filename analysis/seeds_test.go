package analysis

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/metrics"
)

// seedMatrix is an evaluation of one zero-shot and one supervised
// direction with the given averages.
func seedMatrix(zeroBLEU, zeroCHRF, offTarget, supBLEU float64) *MatrixResult {
	return &MatrixResult{TestSet: "/data/flores", Directions: []DirectionResult{
		{Direction: Direction{Src: "de", Tgt: "fr"}, Kind: ZeroShot, Scores: Scores{Lines: 10}, Ref: "/data/flores/fr.txt"},
		{Direction: Direction{Src: "en", Tgt: "de"}, Kind: Supervised, Scores: Scores{Lines: 10}, Ref: "/data/flores/de.txt"},
	},
		ZeroShot:   Average{Directions: 1, BLEU: zeroBLEU, CHRF: zeroCHRF, OffTarget: offTarget},
		Supervised: Average{Directions: 1, BLEU: supBLEU},
	}
}

func seedSig(zero, off, sup metrics.Difference) *Significance {
	return &Significance{Test: "two-sided paired bootstrap, 1000 resamples",
		ZeroShotAverage:   &AverageTest{Directions: 1, Diff: zero, HasOffTarget: true, OffTargetDiff: off},
		SupervisedAverage: &AverageTest{Directions: 1, Diff: sup}}
}

func d(v, p float64) metrics.Difference {
	return metrics.Difference{Value: v, Lower: v - 1, Upper: v + 1, PValue: p}
}

// threeSeeds: zero-shot BLEU +5, +3, +4 with p = .001, .01, .2 (2 of 3
// significant: confirmed); off-target -10, -20, -5 points with only the
// first significant (1 of 3: not confirmed); supervised BLEU +1, -0.5,
// +0.2, all significant but of both signs (not confirmed).
func threeSeeds() []SeedRun {
	return []SeedRun{
		{"b1.json", "s1.json", seedMatrix(10, 30, 0.5, 20), seedMatrix(15, 35, 0.4, 21), seedSig(d(5, 0.001), d(-0.1, 0.001), d(1, 0.001))},
		{"b2.json", "s2.json", seedMatrix(12, 32, 0.6, 22), seedMatrix(15, 36, 0.4, 21.5), seedSig(d(3, 0.01), d(-0.2, 0.3), d(-0.5, 0.01))},
		{"b3.json", "s3.json", seedMatrix(14, 34, 0.7, 24), seedMatrix(18, 40, 0.65, 24.2), seedSig(d(4, 0.2), d(-0.05, 0.4), d(0.2, 0.001))},
	}
}

func TestCompareSeedsMeansAndVerdicts(t *testing.T) {
	st, err := CompareSeeds("pre", "post", threeSeeds(), DefaultMinSignificant)
	if err != nil {
		t.Fatal(err)
	}
	near := func(name string, got *MeanSD, mean, sd float64) {
		t.Helper()
		if got == nil || math.Abs(got.Mean-mean) > 1e-9 || math.Abs(got.SD-sd) > 1e-9 || got.Seeds != 3 {
			t.Errorf("%s: %+v, want mean %v sd %v over 3 seeds", name, got, mean, sd)
		}
	}
	pre, post := st.Systems[0], st.Systems[1]
	near("pre zero-shot BLEU", pre.ZeroShotBLEU, 12, 2)
	near("pre zero-shot chrF", pre.ZeroShotCHRF, 32, 2)
	near("pre off-target", pre.ZeroShotOffTarget, 0.6, 0.1)
	near("pre supervised BLEU", pre.SupervisedBLEU, 22, 2)
	near("post zero-shot BLEU", post.ZeroShotBLEU, 16, math.Sqrt(3))
	want := map[string][2]string{
		"zero-shot BLEU":       {Confirmed, "system better"},
		"zero-shot off-target": {NotConfirmed, ""},
		"supervised BLEU":      {NotConfirmed, ""},
	}
	if len(st.Contrasts) != 3 {
		t.Fatalf("%d contrasts, want 3", len(st.Contrasts))
	}
	for _, c := range st.Contrasts {
		if w := want[c.Name]; c.Verdict != w[0] || c.Favours != w[1] {
			t.Errorf("%s: %q %q, want %q %q", c.Name, c.Verdict, c.Favours, w[0], w[1])
		}
	}
	if st.Contrasts[0].Significant != 2 || st.Contrasts[1].Significant != 1 || st.Contrasts[2].Significant != 3 {
		t.Errorf("significant seeds %d, %d, %d; want 2, 1, 3", st.Contrasts[0].Significant, st.Contrasts[1].Significant, st.Contrasts[2].Significant)
	}

	// One significant seed suffices with a minimum of 1: lower off-target
	// is the system's gain.
	st1, err := CompareSeeds("pre", "post", threeSeeds(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if c := st1.Contrasts[1]; c.Verdict != Confirmed || c.Favours != "system better" {
		t.Errorf("off-target with a minimum of 1: %q %q, want confirmed, system better", c.Verdict, c.Favours)
	}
	if c := judge("zero-shot off-target", true, []metrics.Difference{d(0.1, 0.01), d(0.2, 0.02)}, 2); c.Favours != "system worse" {
		t.Errorf("higher off-target on every seed: %q %q, want confirmed, system worse", c.Verdict, c.Favours)
	}
	if c := judge("zero-shot BLEU", false, []metrics.Difference{d(0, 0.01), d(0, 0.01)}, 1); c.Verdict != NotConfirmed {
		t.Errorf("no difference on any seed: %q, want not confirmed", c.Verdict)
	}

	var md bytes.Buffer
	if err := st.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"| pre | 12.00 ± 2.00 | 32.00 ± 2.00 | 60.00 ± 10.00 | 22.00 ± 2.00 |",
		"two-sided paired bootstrap, 1000 resamples", "p < 0.05 on at least 2 of them",
		"| zero-shot BLEU | +5.00 (+4.00 to +6.00), p = 0.0010 |", "| 2 of 3 | confirmed (post better) |",
		"| zero-shot off-target | -10.00 (-110.00 to +90.00), p = 0.0010 |", "| 1 of 3 | not confirmed |"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md.String())
		}
	}
	var js bytes.Buffer
	if err := st.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back SeedStudy
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Contrasts[0].Verdict != Confirmed || back.Seeds != 3 {
		t.Errorf("JSON round trip: %v %+v", err, back)
	}
}

func TestCompareSeedsRefusesWhatCannotBePooled(t *testing.T) {
	runs := threeSeeds()
	if _, err := CompareSeeds("pre", "post", runs[:1], 1); err == nil || !strings.Contains(err.Error(), "at least 2") {
		t.Errorf("one seed: %v", err)
	}
	if _, err := CompareSeeds("pre", "post", runs, 4); err == nil || !strings.Contains(err.Error(), "1 to 3") {
		t.Errorf("4 significant seeds of 3: %v", err)
	}
	runs[2].System.Directions[0].Direction = Direction{Src: "fr", Tgt: "de"}
	_, err := CompareSeeds("pre", "post", runs, 2)
	if err == nil || !strings.Contains(err.Error(), "seed 3: s3.json differs from seed 1's baseline b1.json") ||
		!strings.Contains(err.Error(), "de-fr") {
		t.Errorf("different directions: %v", err)
	}
	runs = threeSeeds()
	runs[1].Baseline.TestSet = "/data/tatoeba"
	if _, err := CompareSeeds("pre", "post", runs, 2); err == nil || !strings.Contains(err.Error(), "b2.json") ||
		!strings.Contains(err.Error(), "test set tatoeba, not flores") {
		t.Errorf("different test sets: %v", err)
	}
}

// TestCompareSeedsShowsTheIdentifiersError: with the references' language
// ID in every evaluation, the means table gains the references' own
// off-target rate as a row and each system's rate over the lines whose
// reference is on target; without it in one seed, that column is absent
// rather than averaged over fewer seeds.
func TestCompareSeedsShowsTheIdentifiersError(t *testing.T) {
	runs := threeSeeds()
	for i, r := range runs {
		r.Baseline.ZeroShot.RefLID = &RefLID{OffTarget: 0.03, OnTargetLines: 97, HypOffTarget: 0.4 + 0.1*float64(i)}
		r.System.ZeroShot.RefLID = &RefLID{OffTarget: 0.03, OnTargetLines: 97, HypOffTarget: 0.1}
	}
	st, err := CompareSeeds("pre", "post", runs, DefaultMinSignificant)
	if err != nil {
		t.Fatal(err)
	}
	if st.ReferenceOffTarget == nil || *st.ReferenceOffTarget != 0.03 {
		t.Fatalf("reference off-target %v, want 0.03", st.ReferenceOffTarget)
	}
	if m := st.Systems[0].ZeroShotOffTargetOnRef; m == nil || math.Abs(m.Mean-0.5) > 1e-9 || math.Abs(m.SD-0.1) > 1e-9 {
		t.Fatalf("pre's off-target on on-target references %+v, want 0.5 ± 0.1", m)
	}
	var md bytes.Buffer
	if err := st.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"| off-target, on-target references (%) |",
		"| pre | 12.00 ± 2.00 | 32.00 ± 2.00 | 60.00 ± 10.00 | 50.00 ± 10.00 | 22.00 ± 2.00 |",
		"| post | 16.00 ± 1.73 | 37.00 ± 2.65 | 48.33 ± 14.43 | 10.00 ± 0.00 | 22.23 ± 1.72 |",
		"| references | – | – | 3.00 | – | – |"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md.String())
		}
	}
	runs[1].System.ZeroShot.RefLID = nil
	st, err = CompareSeeds("pre", "post", runs, DefaultMinSignificant)
	if err != nil {
		t.Fatal(err)
	}
	if st.Systems[1].ZeroShotOffTargetOnRef != nil {
		t.Errorf("post has the on-target-references rate over 2 of 3 seeds: %+v", st.Systems[1].ZeroShotOffTargetOnRef)
	}
}
