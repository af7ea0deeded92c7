package metrics

import (
	"fmt"
	"sort"
)

// Bootstrap defaults, as in sacreBLEU's paired_bs test.
const (
	DefaultBootstrapSamples = 1000
	DefaultBootstrapSeed    = 12345
)

// BootstrapOptions configures PairedBootstrap. The zero value means 1000
// samples and seed 12345 (sacreBLEU's SACREBLEU_SEED default).
type BootstrapOptions struct {
	Samples int
	Seed    *uint64
	// PValue chooses the paired tests' p-value (TwoSided by default).
	PValue PValueMethod
}

// Estimate is a score with its bootstrap mean and 95% confidence interval.
// Its JSON keys are those of a score's --confidence record (eval --json).
type Estimate struct {
	Score float64 `json:"score"` // on the real corpus
	Mean  float64 `json:"mean"`  // mean over resamples
	CI    float64 `json:"ci"`    // half-width of the 95% interval, sacreBLEU's "±"
	Lower float64 `json:"lower"` // the interval's bounds (2.5% and 97.5% order statistics)
	Upper float64 `json:"upper"`
}

// PairedResult is the outcome of a paired bootstrap test of a system
// against a baseline on one metric.
type PairedResult struct {
	Metric    string
	Signature string // with sacreBLEU's bs and seed fields
	Baseline  Estimate
	System    Estimate
	// Diff is system minus baseline: the real difference, the mean of the
	// resampled differences and their 95% interval (the same order
	// statistics as the scores' intervals). sacreBLEU prints no such
	// interval; a difference is easier to report with one than with two
	// overlapping score intervals.
	Diff Estimate
	// PValue is computed as Method says: two-sided by default, or
	// sacreBLEU 2.x's paired_bs p-value.
	PValue  float64
	Method  PValueMethod
	Samples int
	Seed    uint64
}

// Test names the test, e.g. "two-sided paired bootstrap, 1000 resamples".
func (r PairedResult) Test() string { return r.Method.Describe(r.Samples) }

// PairedBootstrap runs paired bootstrap resampling (Koehn 2004) between a
// baseline and a system against the same references, with sacreBLEU 2.x's
// semantics: both systems are rescored on the same resampled segment sets,
// drawn by numpy's default_rng(seed).choice as sacreBLEU draws them. The
// p-value is two-sided unless opts ask for sacreBLEU's paired_bs one. It is
// deterministic for a seed.
func PairedBootstrap(m Metric, baseline, system []string, refs [][]string, opts BootstrapOptions) (PairedResult, error) {
	res, _, err := PairedResamples(m, baseline, system, refs, opts)
	return res, err
}

// PairedResamples is PairedBootstrap that also returns the resampled
// differences (system minus baseline, one per resample, in draw order), for
// tests built on top of them, such as comparing the gains of two disjoint
// sets of lines.
func PairedResamples(m Metric, baseline, system []string, refs [][]string, opts BootstrapOptions) (PairedResult, []float64, error) {
	if len(baseline) != len(system) {
		return PairedResult{}, nil, fmt.Errorf("baseline has %d segments but system has %d", len(baseline), len(system))
	}
	if len(system) == 0 {
		return PairedResult{}, nil, fmt.Errorf("paired bootstrap needs at least one segment")
	}
	samples, seed := opts.Resolve()
	blStats, sig, err := m.SegmentStats(baseline, refs)
	if err != nil {
		return PairedResult{}, nil, fmt.Errorf("baseline: %w", err)
	}
	sysStats, _, err := m.SegmentStats(system, refs)
	if err != nil {
		return PairedResult{}, nil, fmt.Errorf("system: %w", err)
	}
	width := m.StatsLen()
	res := PairedResult{Metric: m.Name(), Samples: samples, Seed: seed, Method: opts.PValue}
	res.Signature = withBootstrapFields(sig, samples, seed)
	res.Baseline.Score = m.ScoreStats(sumStats(blStats, width))
	res.System.Score = m.ScoreStats(sumStats(sysStats, width))

	scores := resampleScores(m, [][][]float64{blStats, sysStats}, samples, seed)
	blScores, sysScores := scores[0], scores[1]
	res.Baseline.setInterval(blScores)
	res.System.setInterval(sysScores)
	diffs := differences(blScores, sysScores)
	res.Diff.Score = res.System.Score - res.Baseline.Score
	res.Diff.setInterval(diffs)
	res.PValue = PairedPValue(opts.PValue, res.Diff.Score, diffs)
	return res, diffs, nil
}

// resampleScores draws samples sets of segment indices with replacement
// (numpy's order: sample by sample) and scores every system on each set;
// scores[k][s] is system k's score on set s. Systems scored in one call see
// the same sets, which is what makes the bootstrap paired.
func resampleScores(m Metric, systems [][][]float64, samples int, seed uint64) [][]float64 {
	rng := newNumpyRNG(seed)
	n := len(systems[0])
	width := m.StatsLen()
	tot := make([][]float64, len(systems))
	scores := make([][]float64, len(systems))
	for k := range systems {
		tot[k], scores[k] = make([]float64, width), make([]float64, samples)
	}
	for s := 0; s < samples; s++ {
		for k := range tot {
			clear(tot[k])
		}
		for i := 0; i < n; i++ {
			idx := rng.intn(uint32(n))
			for k, sys := range systems {
				for j := 0; j < width; j++ {
					tot[k][j] += sys[idx][j]
				}
			}
		}
		for k := range systems {
			scores[k][s] = m.ScoreStats(tot[k])
		}
	}
	return scores
}

// Resolve applies the defaults: 1000 samples, seed 12345.
func (o BootstrapOptions) Resolve() (samples int, seed uint64) {
	samples, seed = o.Samples, uint64(DefaultBootstrapSeed)
	if samples <= 0 {
		samples = DefaultBootstrapSamples
	}
	if o.Seed != nil {
		seed = *o.Seed
	}
	return samples, seed
}

// Bootstrap estimates one system's score with its 95% confidence interval
// by bootstrap resampling, as sacreBLEU's --confidence does (the same draws
// as its paired test for a seed, so the system's interval here equals the
// one PairedBootstrap reports for it). The signature carries bs and seed.
func Bootstrap(m Metric, system []string, refs [][]string, opts BootstrapOptions) (Estimate, string, error) {
	if len(system) == 0 {
		return Estimate{}, "", fmt.Errorf("bootstrap resampling needs at least one segment")
	}
	samples, seed := opts.Resolve()
	stats, sig, err := m.SegmentStats(system, refs)
	if err != nil {
		return Estimate{}, "", err
	}
	e := Estimate{Score: m.ScoreStats(sumStats(stats, m.StatsLen()))}
	e.setInterval(resampleScores(m, [][][]float64{stats}, samples, seed)[0])
	return e, withBootstrapFields(sig, samples, seed), nil
}

// NewEstimate is a real score with the mean and 95% interval of its
// resampled values, as setInterval computes them.
func NewEstimate(score float64, resampled []float64) Estimate {
	e := Estimate{Score: score}
	e.setInterval(resampled)
	return e
}

// setInterval is sacreBLEU's estimate_ci: the mean, and half the distance
// between the n/40-th smallest and n/40-th largest resampled scores.
func (e *Estimate) setInterval(scores []float64) {
	sorted := append([]float64(nil), scores...)
	sort.Float64s(sorted)
	n := len(sorted)
	lo := n / 40
	e.Lower, e.Upper = sorted[lo], sorted[n-lo-1]
	e.CI = 0.5 * (e.Upper - e.Lower)
	e.Mean = mean(sorted)
}

// differences are the resampled system-minus-baseline differences.
func differences(bl, sys []float64) []float64 {
	d := make([]float64, len(bl))
	for i := range bl {
		d[i] = sys[i] - bl[i]
	}
	return d
}

// mean sums left to right; numpy's mean sums pairwise, which can differ in
// the last bits only.
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// withBootstrapFields inserts bs and seed after nrefs in a formatted
// signature, where sacreBLEU's paired test puts them.
func withBootstrapFields(sig string, samples int, seed uint64) string {
	var s signature
	for _, part := range splitSig(sig) {
		if part.key != "version" {
			s = append(s, part)
		}
	}
	return s.withBootstrap(samples, seed).String()
}

func splitSig(sig string) signature {
	var out signature
	start := 0
	for i := 0; i <= len(sig); i++ {
		if i == len(sig) || sig[i] == '|' {
			part := sig[start:i]
			for j := 0; j < len(part); j++ {
				if part[j] == ':' {
					out = append(out, sigField{part[:j], part[j+1:]})
					break
				}
			}
			start = i + 1
		}
	}
	return out
}
