package analysis

import (
	"math"
	"slices"
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
