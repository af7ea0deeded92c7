package analysis

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/strata-nmt/strata/internal/atomicfile"
	"github.com/strata-nmt/strata/internal/textio"
	"github.com/strata-nmt/strata/plot"
)

// WriteJSON writes v as indented JSON, atomically.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'))
}

// ReadMatrix reads a matrix.json written by EvalMatrix's caller (or its
// gzipped copy, matrix.json.gz).
func ReadMatrix(path string) (*MatrixResult, error) {
	b, err := textio.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r MatrixResult
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: not a matrix result: %w", path, err)
	}
	if len(r.Directions) == 0 {
		return nil, fmt.Errorf("%s: matrix result without directions", path)
	}
	return &r, nil
}

func pct(x float64) string { return fmt.Sprintf("%.2f%%", 100*x) }

// WriteMarkdown writes the per-direction table, the averages and a BLEU
// grid (rows: source, columns: target).
func (r *MatrixResult) WriteMarkdown(w io.Writer) error {
	bw := &errWriter{w: w}
	bw.printf("# Evaluation matrix\n\n")
	bw.printf("- model: `%s`\n", r.Model)
	if len(r.Parts) == 0 {
		bw.printf("- test set: `%s` (%d lines per language)\n", r.TestSet, r.Lines)
	}
	for _, p := range r.Parts {
		bw.printf("- test set `%s` (%d lines per language: %s)\n", p.Dir, p.Lines, strings.Join(p.Languages, ", "))
	}
	bw.printf("- language identification: %s\n", r.Detector)
	if r.DetectorFallback {
		bw.printf("- **note:** fastText lid.176 was not available; off-target rates come from the fallback detector above and are not comparable with the paper's\n")
	}
	if len(r.Directions) > 0 {
		bw.printf("- BLEU: SacreBLEU, tokenizer zh for Chinese targets and 13a otherwise (e.g. `%s`); chrF `%s`\n",
			r.Directions[0].BLEUSignature, r.Directions[0].CHRFSignature)
	}
	bw.printf("- off-target: share of outputs whose identified language is not the target; " + refLIDNote + "\n\n")
	bw.printf("| direction | kind | BLEU | chrF | off-target | refs off-target | off-target, ref. on target | pivot BLEU | pivot chrF | pivot off-target | pivot off-target, ref. on target |\n")
	bw.printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, d := range r.Directions {
		p := "| | | | |"
		if d.Pivot != nil {
			p = fmt.Sprintf("| %.2f | %.2f | %s | %s |", d.Pivot.BLEU, d.Pivot.CHRF, pct(d.Pivot.OffTarget), hypOnTargetCell(d.Pivot.RefLID))
		}
		bw.printf("| %s | %s | %.2f | %.2f | %s | %s | %s %s\n", d.Direction, d.Kind, d.BLEU, d.CHRF, pct(d.OffTarget),
			refOffTargetCell(d.RefLID), hypOnTargetCell(d.RefLID), p)
	}
	bw.printf("\n| average | directions | BLEU | chrF | off-target | refs off-target | off-target, ref. on target |\n|---|---:|---:|---:|---:|---:|---:|\n")
	avg := func(name string, a Average) {
		if a.Directions == 0 { // e.g. Tatoeba has no supervised direction: no average, not zeros
			bw.printf("| %s | 0 | – | – | – | – | – |\n", name)
			return
		}
		bw.printf("| %s | %d | %.2f | %.2f | %s | %s | %s |\n", name, a.Directions, a.BLEU, a.CHRF, pct(a.OffTarget),
			refOffTargetCell(a.RefLID), hypOnTargetCell(a.RefLID))
	}
	avg("supervised", r.Supervised)
	avg("zero-shot", r.ZeroShot)
	if r.PivotZeroShot != nil {
		avg("zero-shot via "+r.Pivot+" (pivot)", *r.PivotZeroShot)
	}
	r.writeRefLID(bw)
	r.writeGrid(bw)
	return bw.err
}

// writeGrid prints direct BLEU as a source × target grid.
func (r *MatrixResult) writeGrid(bw *errWriter) {
	langs := r.languages()
	bw.printf("\nBLEU by direction (row: source, column: target)\n\n| src \\ tgt |")
	for _, l := range langs {
		bw.printf(" %s |", l)
	}
	bw.printf("\n|---|%s\n", strings.Repeat("---:|", len(langs)))
	for _, s := range langs {
		bw.printf("| %s |", s)
		for _, t := range langs {
			if v, ok := r.bleu(s, t); ok {
				bw.printf(" %.1f |", v)
			} else {
				bw.printf(" |")
			}
		}
		bw.printf("\n")
	}
}

// languages lists every language of the directions: the pivot first, the
// others sorted.
func (r *MatrixResult) languages() []string {
	seen := map[string]bool{}
	for _, d := range r.Directions {
		seen[d.Src], seen[d.Tgt] = true, true
	}
	var out []string
	for l := range seen {
		if l != r.Pivot {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	if seen[r.Pivot] {
		out = append([]string{r.Pivot}, out...)
	}
	return out
}

func (r *MatrixResult) bleu(src, tgt string) (float64, bool) {
	for _, d := range r.Directions {
		if d.Src == src && d.Tgt == tgt {
			return d.BLEU, true
		}
	}
	return math.NaN(), false
}

// ZeroShotGrid returns the non-pivot languages and their zero-shot BLEU as
// grid[i][j] for source i and target j (NaN on the diagonal and where a
// direction was not evaluated), for the heat map.
func (r *MatrixResult) ZeroShotGrid() ([]string, [][]float64) {
	var langs []string
	for _, l := range r.languages() {
		if l != r.Pivot {
			langs = append(langs, l)
		}
	}
	grid := make([][]float64, len(langs))
	for i, s := range langs {
		grid[i] = make([]float64, len(langs))
		for j, t := range langs {
			grid[i][j], _ = r.bleu(s, t)
		}
	}
	return langs, grid
}

// SummaryRow names a system for SummaryMarkdown; Sig, when set, is its
// comparison with a baseline system.
type SummaryRow struct {
	Name   string
	Result *MatrixResult
	Sig    *Significance
}

// SummaryMarkdown writes a table in the layout of the paper's Table 2: one
// row per system with zero-shot BLEU (off-target rate), supervised BLEU and
// the chrF averages, preceded by one pivot row for every system that has
// pivot results (the paper has a single pivot row because it pivots with one
// model; systems compared here each pivot through themselves). When a row
// has a significance test, a last column counts the zero-shot directions
// where the system is significantly better (↑) or worse (↓) than its
// baseline or not significantly different (=), and the per-direction tests
// follow the table.
func SummaryMarkdown(w io.Writer, rows []SummaryRow) error {
	return SummaryMarkdownReported(w, rows, nil)
}

// SummaryMarkdownReported is SummaryMarkdown with published scores
// (ReadReported) in two columns after the system's name, by system name
// and under "pivot" for the pivot rows; nil reported leaves them out.
func SummaryMarkdownReported(w io.Writer, rows []SummaryRow, reported map[string]Reported) error {
	bw := &errWriter{w: w}
	rep := func(name string) string {
		if reported == nil {
			return ""
		}
		// a snapshot's label (NAME@UPDATE, the zero-shot recipe's
		// interim tables) reads the system's scores
		r := reportedFor(reported, name)
		return fmt.Sprintf(" %s | %s |", r.zeroShotCell(), r.supervisedCell())
	}
	var sigs []*Significance
	for _, r := range rows {
		if r.Sig != nil {
			sigs = append(sigs, r.Sig)
		}
	}
	sigCol := func(r SummaryRow) string {
		switch {
		case len(sigs) == 0:
			return ""
		case r.Sig == nil:
			return " – |"
		default:
			return fmt.Sprintf(" %s: %s |", r.Sig.Baseline, r.Sig.summaryCell())
		}
	}
	bw.printf("| system |")
	if reported != nil {
		bw.printf(" reported zero-shot BLEU (off-target) | reported supervised BLEU |")
	}
	bw.printf(" zero-shot BLEU (off-target) | zero-shot refs off-target | zero-shot off-target, ref. on target | zero-shot chrF | supervised BLEU (off-target) | supervised chrF |")
	if len(sigs) > 0 {
		bw.printf(" zero-shot vs baseline, p < %.2f (%s) |", SignificanceLevel, sigs[0].testName())
	}
	bw.printf("\n|---|")
	if reported != nil {
		bw.printf("---:|---:|")
	}
	bw.printf("---:|---:|---:|---:|---:|---:|")
	if len(sigs) > 0 {
		bw.printf("---|")
	}
	bw.printf("\n")
	for _, r := range rows {
		if p := r.Result.PivotZeroShot; p != nil {
			bw.printf("| pivot through %s (%s) |%s %.2f (%s) | %s | %s | %.2f | – | – |", r.Result.Pivot, r.Name, rep(ReportedPivot), p.BLEU, pct(p.OffTarget),
				refOffTargetCell(p.RefLID), hypOnTargetCell(p.RefLID), p.CHRF)
			if len(sigs) > 0 {
				bw.printf(" |")
			}
			bw.printf("\n")
		}
	}
	for _, r := range rows {
		z, s := r.Result.ZeroShot, r.Result.Supervised
		bw.printf("| %s |%s %.2f (%s) | %s | %s | %.2f | %s | %s |%s\n", r.Name, rep(r.Name), z.BLEU, pct(z.OffTarget),
			refOffTargetCell(z.RefLID), hypOnTargetCell(z.RefLID), z.CHRF, supervisedCell(s), chrfCell(s), sigCol(r))
	}
	if bw.err == nil && len(sigs) > 0 {
		bw.err = SignificanceMarkdown(w, sigs)
	}
	return bw.err
}

// supervisedCell and chrfCell print a dash for a test set without
// supervised directions (a pairwise zero-shot set such as Tatoeba's).
func supervisedCell(a Average) string {
	if a.Directions == 0 {
		return "–"
	}
	if a.RefLID != nil {
		return fmt.Sprintf("%.2f (%s; refs %s)", a.BLEU, pct(a.OffTarget), pct(a.RefLID.OffTarget))
	}
	return fmt.Sprintf("%.2f (%s)", a.BLEU, pct(a.OffTarget))
}

func chrfCell(a Average) string {
	if a.Directions == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", a.CHRF)
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// Names of the files WriteMatrixOutputs writes.
const (
	MatrixJSON     = "matrix.json"
	MatrixMarkdown = "matrix.md"
	MatrixHeatmap  = "zeroshot_bleu.png"
)

// WriteMatrixOutputs writes the JSON, the Markdown and (when there are
// zero-shot directions) the heat map of zero-shot BLEU into dir.
func WriteMatrixOutputs(dir string, r *MatrixResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := WriteJSON(filepath.Join(dir, MatrixJSON), r); err != nil {
		return err
	}
	var sb strings.Builder
	if err := r.WriteMarkdown(&sb); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, MatrixMarkdown), []byte(sb.String())); err != nil {
		return err
	}
	if r.ZeroShot.Directions == 0 {
		return nil
	}
	langs, grid := r.ZeroShotGrid()
	return plot.Heatmap(filepath.Join(dir, MatrixHeatmap), "zero-shot BLEU (row: source, column: target)", langs, langs, grid,
		plot.AxisLabels("target", "source"), plot.CellValues("%.1f"), plot.Size(120+90*len(langs), 90+80*len(langs)))
}
