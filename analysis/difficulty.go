package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/strata-nmt/strata/metrics"
)

// Translation difficulty as in the MSC paper (Wei et al., 2020, section
// "Analysis", Eq. 14-15 and Figure 3): a shallow model's prediction loss
// -log P(y|x) of each test pair, averaged over its last K checkpoints, plus
// its standard deviation over them (so that a pair the model oscillates on
// counts as harder), ranks the test set; the ranking is cut into equal
// parts, "Simple" to "Challenging", and systems are compared by BLEU on
// each part.

// DifficultyNames are the paper's names for four buckets, easiest first.
var DifficultyNames = []string{"Simple", "Ordinary", "Difficult", "Challenging"}

// Difficulty returns s(x, y) = mean + standard deviation of each pair's
// loss over checkpoints, and the mean alone; losses[k][i] is checkpoint
// k's -log P(y_i|x_i). The deviation is the population one (divided by
// K), as the paper's Std[·] of K observed losses; it is 0 for one
// checkpoint.
func Difficulty(losses [][]float64) (score, mean []float64, err error) {
	if len(losses) == 0 {
		return nil, nil, fmt.Errorf("difficulty: no checkpoint losses")
	}
	n := len(losses[0])
	for k, l := range losses {
		if len(l) != n {
			return nil, nil, fmt.Errorf("difficulty: checkpoint %d scored %d pairs, checkpoint 1 scored %d", k+1, len(l), n)
		}
	}
	score, mean = make([]float64, n), make([]float64, n)
	kf := float64(len(losses))
	for i := range score {
		var sum, sq float64
		for _, l := range losses {
			sum += l[i]
		}
		mean[i] = sum / kf
		for _, l := range losses {
			sq += (l[i] - mean[i]) * (l[i] - mean[i])
		}
		score[i] = mean[i] + math.Sqrt(sq/kf)
	}
	return score, mean, nil
}

// Buckets sorts line indices by score, easiest first (ties by line), and
// cuts them into n parts whose sizes differ by at most one, the larger
// parts first.
func Buckets(scores []float64, n int) ([][]int, error) {
	if n < 1 || n > len(scores) {
		return nil, fmt.Errorf("difficulty: %d buckets for %d lines", n, len(scores))
	}
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(scores[a], scores[b]) })
	out := make([][]int, n)
	start := 0
	for b := range out {
		size := len(scores) / n
		if b < len(scores)%n {
			size++
		}
		out[b] = order[start : start+size]
		start += size
	}
	return out, nil
}

// BucketName names bucket b of n: the paper's names for four, else "Q1".."Qn".
func BucketName(b, n int) string {
	if n == len(DifficultyNames) {
		return DifficultyNames[b]
	}
	return fmt.Sprintf("Q%d", b+1)
}

// BucketBLEU scores hyps against refs on each bucket's lines with bleu.
func BucketBLEU(bleu *metrics.BLEU, hyps, refs []string, buckets [][]int) ([]metrics.BLEUScore, error) {
	if len(hyps) != len(refs) {
		return nil, fmt.Errorf("difficulty: %d hypotheses for %d references", len(hyps), len(refs))
	}
	out := make([]metrics.BLEUScore, len(buckets))
	for b, lines := range buckets {
		s, err := bleu.Corpus(pick(hyps, lines), [][]string{pick(refs, lines)})
		if err != nil {
			return nil, err
		}
		out[b] = s
	}
	return out, nil
}
