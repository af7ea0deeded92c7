package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/strata-nmt/strata/internal/textio"
)

// difficultyHeader is difficulty.tsv's first line.
const difficultyHeader = "line\tscore\tmean_loss\tbucket"

// formatLoss writes a score so that reading it back gives the same float64:
// a ranking read from difficulty.tsv then cuts the same buckets as the
// checkpoints that computed it, ties included.
func formatLoss(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// ReadDifficultyScores reads the scores and mean losses of a difficulty.tsv
// that WriteDifficulty wrote, so that a ranking computed once from a
// baseline's checkpoints buckets later systems without those checkpoints
// (a study archives the ranking, not the weights).
func ReadDifficultyScores(path string) (scores, mean []float64, err error) {
	lines, err := textio.ReadLines(path)
	if err != nil {
		return nil, nil, err
	}
	if len(lines) == 0 || lines[0] != difficultyHeader {
		return nil, nil, fmt.Errorf("%s:1: want the header %q of a difficulty.tsv", path, difficultyHeader)
	}
	for n, line := range lines[1:] {
		at := fmt.Sprintf("%s:%d", path, n+2)
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, nil, fmt.Errorf("%s: want 4 tab-separated fields (line, score, mean_loss, bucket), got %d", at, len(f))
		}
		if f[0] != strconv.Itoa(n+1) {
			return nil, nil, fmt.Errorf("%s: want line number %d, got %q", at, n+1, f[0])
		}
		s, err1 := strconv.ParseFloat(f[1], 64)
		m, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil {
			return nil, nil, fmt.Errorf("%s: want numbers for score and mean_loss, got %q and %q", at, f[1], f[2])
		}
		scores, mean = append(scores, s), append(mean, m)
	}
	if len(scores) == 0 {
		return nil, nil, fmt.Errorf("%s: no scored lines after the header", path)
	}
	return scores, mean, nil
}
