package analysis

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/metrics"
)

func TestDifficultyIsMeanPlusStd(t *testing.T) {
	// pair 0: losses 1 and 3 (mean 2, population std 1); pair 1: 2 and 2.
	got, mean, err := Difficulty([][]float64{{1, 2}, {3, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[0]-3) > 1e-12 || math.Abs(got[1]-2) > 1e-12 {
		t.Fatalf("Difficulty = %v, want [3 2]", got)
	}
	if mean[0] != 2 || mean[1] != 2 {
		t.Fatalf("mean losses %v, want [2 2]", mean)
	}
	if _, _, err := Difficulty([][]float64{{1, 2}, {3}}); err == nil {
		t.Fatal("checkpoints scoring different numbers of pairs: no error")
	}
}

func TestBucketsSplitSortedScores(t *testing.T) {
	got, err := Buckets([]float64{5, 1, 4, 2, 3, 0, 6}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{5, 1, 3}, {4, 2}, {0, 6}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("Buckets = %v, want %v (sizes 3,2,2, easiest first)", got, want)
	}
	ties, _ := Buckets([]float64{1, 1, 0, 1}, 2)
	if !slices.Equal(ties[0], []int{2, 0}) || !slices.Equal(ties[1], []int{1, 3}) {
		t.Fatalf("ties not kept in line order: %v", ties)
	}
	if _, err := Buckets([]float64{1, 2}, 3); err == nil {
		t.Fatal("more buckets than lines: no error")
	}
	if BucketName(3, 4) != "Challenging" || BucketName(0, 5) != "Q1" {
		t.Fatalf("bucket names %q %q", BucketName(3, 4), BucketName(0, 5))
	}
}

func TestBucketBLEUScoresEachBucket(t *testing.T) {
	refs := []string{"the cat sat on the mat", "a dog ran in the park today", "the cat sat on the mat", "a dog ran in the park today"}
	hyps := []string{refs[0], "x y z w v u", refs[2], "x y z w v u"}
	bleu, err := metrics.NewBLEU(metrics.BLEUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := BucketBLEU(bleu, hyps, refs, [][]int{{0, 2}, {1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[0].Score-100) > 1e-9 || got[1].Score != 0 {
		t.Fatalf("bucket BLEU %.2f and %.2f, want 100 and 0", got[0].Score, got[1].Score)
	}
}

// A system equal to the baseline on the easy bucket and better on the hard
// one: no gain (p = 1) on the first, a gain whose interval lies above zero
// on the second, the very test `strata eval --paired-bs --seed 12346` runs
// on those lines, and a spread equal to the hard bucket's gain with its
// interval (the easy bucket's resampled differences are all zero).
func TestBucketGainsTestEachBucketAndTheSpread(t *testing.T) {
	words := strings.Fields("open the file save close print a document window menu new folder")
	var refs, base, sys []string
	x := uint32(7)
	garbage := "zz yy xx ww vv"
	for i := 0; i < 80; i++ {
		var w []string
		for j := 0; j < 6; j++ {
			x = x*1664525 + 1013904223
			w = append(w, words[x>>28%uint32(len(words))])
		}
		ref := strings.Join(w, " ")
		refs = append(refs, ref)
		switch {
		case i < 40: // easy bucket: both systems copy the reference
			base, sys = append(base, ref), append(sys, ref)
		case i%2 == 0: // hard bucket: the system gets half right
			base, sys = append(base, garbage), append(sys, ref)
		default:
			base, sys = append(base, garbage), append(sys, garbage)
		}
	}
	buckets := [][]int{make([]int, 40), make([]int, 40)}
	for i := range 40 {
		buckets[0][i], buckets[1][i] = i, 40+i
	}
	bleu, err := metrics.NewBLEU(metrics.BLEUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gains, spread, err := bucketGains(bleu, base, sys, refs, buckets, 1000, 12345)
	if err != nil {
		t.Fatal(err)
	}
	if g := gains[0]; g != (GainTest{PValue: 1}) {
		t.Errorf("easy bucket: %+v, want no gain and p = 1", g)
	}
	seed := uint64(12346)
	want, _ := metrics.PairedBootstrap(bleu, base[40:], sys[40:], [][]string{refs[40:]}, metrics.BootstrapOptions{Seed: &seed})
	g := gains[1]
	if g.Gain != want.Diff.Score || g.Lower != want.Diff.Lower || g.Upper != want.Diff.Upper || g.PValue != want.PValue || !(g.Lower > 0) {
		t.Errorf("hard bucket: %+v; the same test on its lines alone: %+v, p %v", g, want.Diff, want.PValue)
	}
	if spread == nil || spread.Gain != g.Gain || spread.Lower != g.Lower || spread.Upper != g.Upper {
		t.Errorf("spread %+v, want the hard bucket's gain and interval %+v", spread, g)
	}
}

func TestGainGrowsNeedsTheHardGainAndTheSpread(t *testing.T) {
	sys := func(hard GainTest, spreadLower float64) DifficultySystem {
		return DifficultySystem{Gains: []GainTest{{Gain: 0.2, PValue: 0.4}, hard}, Spread: &GainTest{Gain: 1, Lower: spreadLower, Upper: 2}}
	}
	for _, c := range []struct {
		s    DifficultySystem
		want bool
	}{
		{sys(GainTest{Gain: 1.5, PValue: 0.01}, 0.3), true},
		{sys(GainTest{Gain: 1.5, PValue: 0.08}, 0.3), false},                   // hardest gain not significant
		{sys(GainTest{Gain: 1.5, PValue: 0.01}, -0.1), false},                  // spread's interval reaches zero
		{sys(GainTest{Gain: -1.5, PValue: 0.01}, 0.3), false},                  // a significant loss
		{DifficultySystem{Gains: []GainTest{{Gain: 2, PValue: 0.001}}}, false}, // not tested
	} {
		if got := GainGrows(c.s); got != c.want {
			t.Errorf("GainGrows(%+v) = %v, want %v", c.s, got, c.want)
		}
	}
}
