package analysis

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// Reported is a system's published scores (a paper's table), printed
// beside strata's own in SummaryMarkdown so that a reproduction reads
// against its target without transcribing numbers by hand. NaN marks a
// score the source does not give.
type Reported struct {
	ZeroShotBLEU      float64 `json:"zero_shot_bleu"`
	ZeroShotOffTarget float64 `json:"zero_shot_off_target_percent"` // percent, as papers print it
	SupervisedBLEU    float64 `json:"supervised_bleu"`
}

// ReportedPivot is the name under which a reported file gives the pivot
// row (pivot translation through English, the paper's row 0).
const ReportedPivot = "pivot"

// ReadReported reads published scores, one system per line:
//
//	NAME  ZERO-SHOT-BLEU  ZERO-SHOT-OFF-TARGET-%  SUPERVISED-BLEU
//
// separated by tabs or spaces, "-" for a score not given; blank lines and
// lines starting with # are skipped. NAME is a system name as given to
// `eval-matrix table` (NAME=MATRIX.json), or "pivot" for the pivot rows.
func ReadReported(path string) (map[string]Reported, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]Reported{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		name, r, err := parseReported(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%s:%d: system %q given twice", path, line, name)
		}
		out[name] = r
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// parseReported parses one line of a reported-scores file.
func parseReported(text string) (string, Reported, error) {
	fields := strings.Fields(text)
	if len(fields) != 4 {
		return "", Reported{}, fmt.Errorf("%d fields, want 4: NAME, zero-shot BLEU, zero-shot off-target %%, supervised BLEU (- for none)", len(fields))
	}
	var v [3]float64
	for i, s := range fields[1:] {
		if s == "-" {
			v[i] = math.NaN()
			continue
		}
		x, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || x < 0 || x > 100 {
			return "", Reported{}, fmt.Errorf("field %d %q: want a score from 0 to 100 or -", i+2, s)
		}
		v[i] = x
	}
	return fields[0], Reported{ZeroShotBLEU: v[0], ZeroShotOffTarget: v[1], SupervisedBLEU: v[2]}, nil
}

// zeroShotCell prints "BLEU (off-target%)" as the paper does, or the parts
// it gives, or a dash.
func (r *Reported) zeroShotCell() string {
	switch {
	case r == nil || math.IsNaN(r.ZeroShotBLEU):
		return "–"
	case math.IsNaN(r.ZeroShotOffTarget):
		return fmt.Sprintf("%.1f", r.ZeroShotBLEU)
	}
	return fmt.Sprintf("%.1f (%.2f%%)", r.ZeroShotBLEU, r.ZeroShotOffTarget)
}

func (r *Reported) supervisedCell() string {
	if r == nil || math.IsNaN(r.SupervisedBLEU) {
		return "–"
	}
	return fmt.Sprintf("%.1f", r.SupervisedBLEU)
}
