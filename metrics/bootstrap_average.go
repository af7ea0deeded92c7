package metrics

import (
	"fmt"
	"sort"
)

// PairedStratum is one test set (one translation direction) of an
// averaged paired bootstrap: both systems' outputs on the same segments.
type PairedStratum struct {
	Metric           Metric
	Baseline, System []string
	Refs             [][]string
	// BaselineFlag and SystemFlag optionally mark segments (e.g. outputs
	// in the wrong language); when every stratum has them, the mean rate
	// of flagged segments is resampled alongside the metric.
	BaselineFlag, SystemFlag []bool
}

// Difference is a system-minus-baseline difference with its 95% interval
// (the 2.5% and 97.5% order statistics of the resampled differences, as
// Estimate's) and a p-value computed as PairedResult's (by Method).
type Difference struct {
	Value        float64
	Lower, Upper float64
	PValue       float64
}

// AverageResult is the outcome of AveragePairedBootstrap.
type AverageResult struct {
	Strata  int
	Samples int
	Seed    uint64
	Method  PValueMethod
	// Baseline and System are the metric's unweighted mean over strata.
	Baseline, System Estimate
	Diff             Difference
	// HasRate: the strata carried flags and the rates below are set
	// (unweighted means over strata of each stratum's flagged share).
	HasRate                  bool
	BaselineRate, SystemRate Estimate
	RateDiff                 Difference
}

// AveragePairedBootstrap answers "is the system better on average over
// these test sets?", where PairedBootstrap answers it for one: the
// quantity is the unweighted mean of the metric over the strata (the
// zero-shot average of a multilingual table), and each resample draws
// every stratum's segments with replacement within that stratum, so each
// direction keeps its size and both systems see the same draws. Strata
// are drawn in order, sample by sample, from the seed's numpy generator.
// sacreBLEU has no such test; for one stratum this is PairedBootstrap's
// draws and p-value.
func AveragePairedBootstrap(strata []PairedStratum, opts BootstrapOptions) (AverageResult, error) {
	if len(strata) == 0 {
		return AverageResult{}, fmt.Errorf("averaged paired bootstrap needs at least one test set")
	}
	samples, seed := opts.Resolve()
	res := AverageResult{Strata: len(strata), Samples: samples, Seed: seed, Method: opts.PValue, HasRate: true}
	stats := make([]stratumStats, len(strata))
	for k, st := range strata {
		s, err := st.stats()
		if err != nil {
			return AverageResult{}, fmt.Errorf("test set %d: %w", k+1, err)
		}
		stats[k] = s
		res.HasRate = res.HasRate && s.flags != nil
	}
	bl, sys := make([]float64, samples), make([]float64, samples)
	var blRate, sysRate []float64
	if res.HasRate {
		blRate, sysRate = make([]float64, samples), make([]float64, samples)
	}
	rng := newNumpyRNG(seed)
	for s := 0; s < samples; s++ {
		for k := range stats {
			b, y, br, yr := stats[k].resample(rng)
			bl[s] += b / float64(len(stats))
			sys[s] += y / float64(len(stats))
			if res.HasRate {
				blRate[s] += br / float64(len(stats))
				sysRate[s] += yr / float64(len(stats))
			}
		}
	}
	for _, st := range stats {
		res.Baseline.Score += st.score(0) / float64(len(stats))
		res.System.Score += st.score(1) / float64(len(stats))
		if res.HasRate {
			res.BaselineRate.Score += st.rate(0) / float64(len(stats))
			res.SystemRate.Score += st.rate(1) / float64(len(stats))
		}
	}
	res.Baseline.setInterval(bl)
	res.System.setInterval(sys)
	res.Diff = difference(opts.PValue, res.Baseline.Score, res.System.Score, bl, sys)
	if res.HasRate {
		res.BaselineRate.setInterval(blRate)
		res.SystemRate.setInterval(sysRate)
		res.RateDiff = difference(opts.PValue, res.BaselineRate.Score, res.SystemRate.Score, blRate, sysRate)
	}
	return res, nil
}

// stratumStats holds one stratum's per-segment statistics of both
// systems (index 0 baseline, 1 system) and, optionally, their flags.
type stratumStats struct {
	m     Metric
	segs  [2][][]float64
	flags *[2][]bool
	tot   [2][]float64 // scratch sums of one resample
}

func (st PairedStratum) stats() (stratumStats, error) {
	if len(st.Baseline) != len(st.System) {
		return stratumStats{}, fmt.Errorf("baseline has %d segments but system has %d", len(st.Baseline), len(st.System))
	}
	if len(st.System) == 0 {
		return stratumStats{}, fmt.Errorf("no segments")
	}
	out := stratumStats{m: st.Metric}
	var err error
	if out.segs[0], _, err = st.Metric.SegmentStats(st.Baseline, st.Refs); err != nil {
		return out, fmt.Errorf("baseline: %w", err)
	}
	if out.segs[1], _, err = st.Metric.SegmentStats(st.System, st.Refs); err != nil {
		return out, fmt.Errorf("system: %w", err)
	}
	if st.BaselineFlag != nil || st.SystemFlag != nil {
		if len(st.BaselineFlag) != len(st.Baseline) || len(st.SystemFlag) != len(st.System) {
			return out, fmt.Errorf("%d and %d flags for %d segments", len(st.BaselineFlag), len(st.SystemFlag), len(st.System))
		}
		out.flags = &[2][]bool{st.BaselineFlag, st.SystemFlag}
	}
	w := st.Metric.StatsLen()
	out.tot = [2][]float64{make([]float64, w), make([]float64, w)}
	return out, nil
}

// score is system k's metric on the whole stratum.
func (s *stratumStats) score(k int) float64 {
	return s.m.ScoreStats(sumStats(s.segs[k], s.m.StatsLen()))
}

// rate is system k's share of flagged segments.
func (s *stratumStats) rate(k int) float64 {
	c := 0
	for _, f := range s.flags[k] {
		if f {
			c++
		}
	}
	return float64(c) / float64(len(s.flags[k]))
}

// resample draws the stratum's segments once with replacement and returns
// both systems' metric and flagged shares on the draw.
func (s *stratumStats) resample(rng *numpyRNG) (bl, sys, blRate, sysRate float64) {
	n := len(s.segs[0])
	clear(s.tot[0])
	clear(s.tot[1])
	var c [2]int
	for i := 0; i < n; i++ {
		idx := rng.intn(uint32(n))
		for k := 0; k < 2; k++ {
			for j, v := range s.segs[k][idx] {
				s.tot[k][j] += v
			}
			if s.flags != nil && s.flags[k][idx] {
				c[k]++
			}
		}
	}
	bl, sys = s.m.ScoreStats(s.tot[0]), s.m.ScoreStats(s.tot[1])
	return bl, sys, float64(c[0]) / float64(n), float64(c[1]) / float64(n)
}

// difference is the real difference sys-bl with the percentile interval of
// the resampled ones and the method's p-value.
func difference(m PValueMethod, bl, sys float64, bls, syss []float64) Difference {
	d := differences(bls, syss)
	p := PairedPValue(m, sys-bl, d)
	sort.Float64s(d)
	lo := len(d) / 40
	return Difference{Value: sys - bl, Lower: d[lo], Upper: d[len(d)-lo-1], PValue: p}
}
