package analysis

import (
	"fmt"

	"github.com/strata-nmt/strata/metrics"
)

// GainTest is a BLEU difference with its 95% bootstrap interval and
// two-sided p-value.
type GainTest struct {
	Gain   float64 `json:"gain"`
	Lower  float64 `json:"lower"`
	Upper  float64 `json:"upper"`
	PValue float64 `json:"p_value"`
}

// bucketGains tests a system against the baseline within each bucket (a
// two-sided paired bootstrap on that bucket's lines alone, bucket b drawn
// with seed+b so that the buckets' resamples are independent), and the
// hardest bucket's gain minus the easiest's: resample s of the one minus
// resample s of the other, the buckets being disjoint sets of lines. This
// is the test behind "the gain grows with difficulty" (the MSC paper's
// Figure 3 reads it off the bars).
func bucketGains(bleu *metrics.BLEU, base, sys, refs []string, buckets [][]int, samples int, seed uint64) ([]GainTest, *GainTest, error) {
	gains := make([]GainTest, len(buckets))
	var first, last []float64
	for b, lines := range buckets {
		h0, h1, r := pick(base, lines), pick(sys, lines), pick(refs, lines)
		sd := seed + uint64(b)
		res, diffs, err := metrics.PairedResamples(bleu, h0, h1, [][]string{r}, metrics.BootstrapOptions{Samples: samples, Seed: &sd})
		if err != nil {
			return nil, nil, fmt.Errorf("bucket %s: %w", BucketName(b, len(buckets)), err)
		}
		gains[b] = GainTest{Gain: res.Diff.Score, Lower: res.Diff.Lower, Upper: res.Diff.Upper, PValue: res.PValue}
		if b == 0 {
			first = diffs
		}
		last = diffs
	}
	if len(buckets) < 2 {
		return gains, nil, nil
	}
	spread := make([]float64, len(first))
	for s := range spread {
		spread[s] = last[s] - first[s]
	}
	real := gains[len(gains)-1].Gain - gains[0].Gain
	e := metrics.NewEstimate(real, spread)
	return gains, &GainTest{Gain: real, Lower: e.Lower, Upper: e.Upper,
		PValue: metrics.PairedPValue(metrics.TwoSided, real, spread)}, nil
}

// pick returns xs at the given line indices.
func pick(xs []string, lines []int) []string {
	out := make([]string, len(lines))
	for k, i := range lines {
		out[k] = xs[i]
	}
	return out
}
