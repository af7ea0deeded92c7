package analysis

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-nmt/strata/internal/atomicfile"
	"github.com/strata-nmt/strata/internal/textio"
)

// Translator translates lines from one language into another, one output
// line per input line.
type Translator interface {
	Translate(ctx context.Context, srcLang, tgtLang string, lines []string) ([]string, error)
}

// MatrixOptions configure EvalMatrix.
type MatrixOptions struct {
	// Pivot is the hub language of the English-centric training data.
	Pivot string
	// Directions to evaluate (AllDirections of the test set when empty).
	Directions []Direction
	// NoPivot skips pivot translation of the zero-shot directions.
	NoPivot bool
	// PivotTranslator translates the pivot legs (the evaluated model when
	// nil); the paper pivots through its best supervised system.
	PivotTranslator Translator
	// Detector identifies output languages for off-target rates.
	Detector Identifier
	// DetectorFallback records that Detector is not fastText lid.176.
	DetectorFallback bool
	// HypDir, when set, receives every hypothesis file (SRC-TGT.txt, and
	// pivot/SRC-PIVOT-TGT.txt); files already there with the right number
	// of lines are reused instead of translated again, so an interrupted
	// evaluation resumes.
	HypDir string
	// Log receives one line per translated direction (nil: discard).
	Log io.Writer
	// Trained, when not nil, are the evaluated model's training
	// directions: only they count as supervised, and the default
	// directions leave out those it cannot translate.
	Trained TrainedDirections
}

// Scores are the metrics of one system output.
type Scores struct {
	BLEU          float64 `json:"bleu"`
	BLEUSignature string  `json:"bleu_signature"`
	CHRF          float64 `json:"chrf"`
	CHRFSignature string  `json:"chrf_signature"`
	// OffTarget is the share of outputs whose identified language is not
	// the target (empty outputs, which no language is identified for,
	// count as off-target).
	OffTarget float64 `json:"off_target"`
	// Identified counts outputs by identified language ("" = none).
	Identified map[string]int `json:"identified"`
	Lines      int            `json:"lines"`
	// RefLID is the identifier's verdict on the references (absent in
	// matrices written before it was recorded).
	RefLID *RefLID `json:"reference_lid,omitempty"`
}

// DirectionResult is one row of the matrix.
type DirectionResult struct {
	Direction
	Kind string `json:"kind"`
	Scores
	// Pivot holds the scores of SRC→pivot→TGT for zero-shot directions.
	Pivot *Scores `json:"pivot,omitempty"`
	// Part is the test set of a TestSuite the direction comes from ("" for
	// a single set).
	Part string `json:"test_part,omitempty"`
	// Ref is the reference file (absolute; its first Lines lines were
	// scored) and Hyp the hypothesis file relative to the hypothesis
	// directory, for significance tests between systems.
	Ref string `json:"ref,omitempty"`
	Hyp string `json:"hyp,omitempty"`
}

// Average is the unweighted mean over directions (every direction of an
// n-way test set has the same lines, so this is also the pooled off-target
// rate).
type Average struct {
	Directions int     `json:"directions"`
	BLEU       float64 `json:"bleu"`
	CHRF       float64 `json:"chrf"`
	OffTarget  float64 `json:"off_target"`
	// RefLID averages the directions' reference language ID (unweighted,
	// as OffTarget; OnTargetLines summed), when every direction has it.
	RefLID *RefLID `json:"reference_lid,omitempty"`
}

// MatrixResult is the whole evaluation.
type MatrixResult struct {
	Model            string            `json:"model"`
	TestSet          string            `json:"test_set"`
	Lines            int               `json:"lines"`
	Pivot            string            `json:"pivot"`
	Detector         string            `json:"detector"`
	DetectorFallback bool              `json:"detector_fallback"`
	Directions       []DirectionResult `json:"directions"`
	Supervised       Average           `json:"supervised"`
	ZeroShot         Average           `json:"zero_shot"`
	PivotZeroShot    *Average          `json:"pivot_zero_shot,omitempty"`
	// Parts describes the test sets of a TestSuite with more than one.
	Parts []SuitePart `json:"test_parts,omitempty"`
}

// SuitePart is one test set of a suite.
type SuitePart struct {
	Name      string   `json:"name"`
	Dir       string   `json:"dir"`
	Lines     int      `json:"lines"`
	Languages []string `json:"languages"`
}

// EvalMatrix translates every direction of the test set with tr and scores
// it; zero-shot directions are also translated through the pivot.
func EvalMatrix(ctx context.Context, tr Translator, ts *TestSet, opt MatrixOptions) (*MatrixResult, error) {
	if opt.Pivot == "" {
		opt.Pivot = "en"
	}
	if opt.Detector == nil {
		return nil, fmt.Errorf("eval matrix: no language identifier")
	}
	dirs := opt.Directions
	if len(dirs) == 0 {
		dirs = opt.allDirections(ts.Languages())
	}
	for _, d := range dirs {
		if ts.Lines[d.Src] == nil || ts.Lines[d.Tgt] == nil {
			return nil, fmt.Errorf("direction %s: the test set %s lacks one of its languages (has %v)", d, ts.Dir, ts.Languages())
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("eval matrix: no directions (test set languages %v)", ts.Languages())
	}
	r := &matrixRun{tr: tr, ts: ts, opt: opt, hyps: map[string][]string{}, start: time.Now()}
	r.total = len(dirs)
	if !opt.NoPivot {
		r.total += len(r.pivotLegs(dirs))
	}
	res := &MatrixResult{TestSet: ts.Dir, Lines: ts.Len(), Pivot: opt.Pivot, Detector: opt.Detector.Name(),
		DetectorFallback: opt.DetectorFallback}
	for _, d := range dirs {
		hyps, err := r.translate(ctx, "", d.Src, d.Tgt, ts.Lines[d.Src], tr)
		if err != nil {
			return nil, err
		}
		row := DirectionResult{Direction: d, Kind: opt.kind(d), Hyp: d.String() + ".txt", Ref: absPath(ts.Files[d.Tgt])}
		if row.Scores, err = Score(hyps, ts.Lines[d.Tgt], d.Tgt, opt.Detector); err != nil {
			return nil, fmt.Errorf("%s: %w", d, err)
		}
		res.Directions = append(res.Directions, row)
	}
	if !opt.NoPivot {
		if err := r.addPivot(ctx, res); err != nil {
			return nil, err
		}
	}
	res.Supervised, res.ZeroShot, res.PivotZeroShot = Averages(res.Directions)
	return res, nil
}

// absPath makes a path absolute when it can (the path as given otherwise).
func absPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// matrixRun holds the state of one evaluation: the hypotheses so far (the
// SRC→pivot outputs are the first legs of the pivot translations) and
// progress counters.
type matrixRun struct {
	tr          Translator
	ts          *TestSet
	opt         MatrixOptions
	hyps        map[string][]string
	done, total int
	start       time.Time
}

// pivotLegs lists the translations pivoting adds: the first leg SRC→pivot
// when it is not an evaluated direction, and every second leg.
func (r *matrixRun) pivotLegs(dirs []Direction) []string {
	have := map[string]bool{}
	for _, d := range dirs {
		have[d.String()] = true
	}
	var legs []string
	for _, d := range dirs {
		if r.opt.kind(d) != ZeroShot {
			continue
		}
		first := Direction{d.Src, r.opt.Pivot}.String()
		if !have[first] {
			have[first] = true
			legs = append(legs, first)
		}
		legs = append(legs, d.Src+"-"+r.opt.Pivot+"-"+d.Tgt)
	}
	return legs
}

// addPivot scores SRC→pivot→TGT for every zero-shot row. The first leg is
// the evaluated model's output for SRC→pivot (or PivotTranslator's).
func (r *matrixRun) addPivot(ctx context.Context, res *MatrixResult) error {
	ptr := r.tr
	sep := false
	if r.opt.PivotTranslator != nil {
		ptr, sep = r.opt.PivotTranslator, true
	}
	for i := range res.Directions {
		row := &res.Directions[i]
		if row.Kind != ZeroShot {
			continue
		}
		p := r.opt.Pivot
		firstKey := ""
		if sep {
			firstKey = "pivot"
		}
		mid, err := r.translate(ctx, firstKey, row.Src, p, r.ts.Lines[row.Src], ptr)
		if err != nil {
			return err
		}
		out, err := r.translate(ctx, "pivot", row.Src+"-"+p, row.Tgt, mid, ptr)
		if err != nil {
			return err
		}
		sc, err := Score(out, r.ts.Lines[row.Tgt], row.Tgt, r.opt.Detector)
		if err != nil {
			return fmt.Errorf("%s via %s: %w", row.Direction, p, err)
		}
		row.Pivot = &sc
	}
	return nil
}

// translate returns the hypotheses of src→tgt (src may name a chain such
// as de-en for a pivot leg), from memory, from HypDir, or from tr.
func (r *matrixRun) translate(ctx context.Context, sub, src, tgt string, lines []string, tr Translator) ([]string, error) {
	key := filepath.Join(sub, src+"-"+tgt)
	if h, ok := r.hyps[key]; ok {
		return h, nil
	}
	path := ""
	if r.opt.HypDir != "" {
		path = filepath.Join(r.opt.HypDir, key+".txt")
		if h, err := textio.ReadLines(path); err == nil && len(h) == len(lines) {
			r.hyps[key] = h
			r.progress(key, len(lines), 0, true)
			return h, nil
		}
	}
	t0 := time.Now()
	srcLang := src[strings.LastIndex(src, "-")+1:]
	h, err := tr.Translate(ctx, srcLang, tgt, lines)
	if err != nil {
		return nil, fmt.Errorf("translating %s: %w", key, err)
	}
	if len(h) != len(lines) {
		return nil, fmt.Errorf("translating %s: %d outputs for %d lines", key, len(h), len(lines))
	}
	for i := range h {
		h[i] = oneLine(h[i])
	}
	if path != "" {
		if err := writeLines(path, h); err != nil {
			return nil, err
		}
	}
	r.hyps[key] = h
	r.progress(key, len(lines), time.Since(t0), false)
	return h, nil
}

func (r *matrixRun) progress(key string, n int, took time.Duration, reused bool) {
	r.done++
	if r.opt.Log == nil {
		return
	}
	if reused {
		fmt.Fprintf(r.opt.Log, "[%d/%d] %s: reused %d hypotheses\n", r.done, r.total, key, n)
		return
	}
	el := time.Since(r.start)
	eta := time.Duration(float64(el) / float64(r.done) * float64(r.total-r.done))
	fmt.Fprintf(r.opt.Log, "[%d/%d] %s: %d lines in %s (%.1f lines/s), ETA %s\n", r.done, r.total, key, n,
		took.Round(time.Second/10), float64(n)/max(took.Seconds(), 1e-9), eta.Round(time.Second))
}

// oneLine keeps a hypothesis on one line of valid UTF-8: a model can
// produce a newline or an invalid byte sequence through byte pieces; a
// newline would shift every later line of a file, and invalid bytes become
// U+FFFD, as SentencePiece's decoder and Python's text files make them.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(strings.NewReplacer("\r", " ", "\n", " ").Replace(s)), " ")
}

func writeLines(path string, lines []string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var sb strings.Builder
	for _, l := range lines {
		sb.WriteString(l)
		sb.WriteByte('\n')
	}
	return atomicfile.WriteFile(path, []byte(sb.String()))
}
