package analysis

import (
	"fmt"
	"path/filepath"
)

// PivotViews splits m's zero-shot rows into two matrices over the same
// lines: direct, as the model translated them, and pivot, as
// SRC→pivot→TGT scored them (their hypotheses under the hypothesis
// folder's pivot/), so that CompareMatrices tests zero-shot translation
// against pivoting direction by direction and on average. It fails when
// m has no pivot results.
func PivotViews(m *MatrixResult) (direct, pivot *MatrixResult, err error) {
	d, p := *m, *m
	d.Directions, p.Directions = nil, nil
	for _, row := range m.Directions {
		if row.Kind != ZeroShot || row.Pivot == nil {
			continue
		}
		d.Directions = append(d.Directions, row)
		via := row
		via.Scores, via.Pivot = *row.Pivot, nil
		via.Hyp = pivotHypFile(row, m.Pivot)
		p.Directions = append(p.Directions, via)
	}
	if len(p.Directions) == 0 {
		return nil, nil, fmt.Errorf("no pivot results for %s (eval-matrix ran with --no-pivot)", m.TestSet)
	}
	d.Supervised, d.ZeroShot, d.PivotZeroShot = Averages(d.Directions)
	p.Supervised, p.ZeroShot, p.PivotZeroShot = Averages(p.Directions)
	return &d, &p, nil
}

// pivotHypFile is where eval-matrix kept row's SRC→hub→TGT output,
// relative to the hypothesis folder: pivot/SRC-HUB-TGT.txt beside the
// direct output (inside its test part's folder for a suite).
func pivotHypFile(row DirectionResult, hub string) string {
	return filepath.Join(filepath.Dir(hypFile(row)), "pivot", row.Src+"-"+hub+"-"+row.Tgt+".txt")
}
