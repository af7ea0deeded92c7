package metrics

// Metric is a corpus metric computed from summed per-segment sufficient
// statistics. BLEU, chrF, multi-bleu and ROUGE implement it, which is what
// PairedBootstrap needs to rescore resampled corpora without re-reading
// the text.
type Metric interface {
	// Name is the metric's display name, e.g. "BLEU" or "chrF2++".
	Name() string
	// StatsLen is the length of each segment's statistics vector.
	StatsLen() int
	// SegmentStats returns one statistics vector per hypothesis and the
	// metric's signature for this corpus.
	SegmentStats(hyps []string, refs [][]string) (stats [][]float64, signature string, err error)
	// ScoreStats computes the corpus score from statistics summed over
	// segments.
	ScoreStats(total []float64) float64
}
