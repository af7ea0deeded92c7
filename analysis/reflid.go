package analysis

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/strata-nmt/strata/internal/textio"
)

// RefLID is what the language identifier makes of a direction's
// references, so that an off-target rate can be read against the
// identifier's own error: references are in the target language by
// construction, and every one identified as another language is an error
// of the identifier (or a line, such as a name or a number, that no
// language can be told from).
type RefLID struct {
	// OffTarget is the share of reference lines identified as another
	// language than the target.
	OffTarget float64 `json:"off_target"`
	// OnTargetLines counts the reference lines identified as the target.
	OnTargetLines int `json:"on_target_lines"`
	// HypOffTarget is the outputs' off-target rate over those lines only.
	HypOffTarget float64 `json:"hyp_off_target"`
}

// ReferenceLID identifies the references of a direction and rates the
// outputs' off-target flags over the lines whose reference is identified
// as the target.
func ReferenceLID(hyps, refs []string, tgt string, det Identifier) *RefLID {
	refOff := OffTargetFlags(refs, tgt, det)
	hypOff := OffTargetFlags(hyps, tgt, det)
	var r RefLID
	off := 0
	for i, bad := range refOff {
		if bad {
			continue
		}
		r.OnTargetLines++
		if i < len(hypOff) && hypOff[i] {
			off++
		}
	}
	if n := len(refs); n > 0 {
		r.OffTarget = float64(n-r.OnTargetLines) / float64(n)
	}
	if r.OnTargetLines > 0 {
		r.HypOffTarget = float64(off) / float64(r.OnTargetLines)
	}
	return &r
}

// AddReferenceLID fills the references' language ID into every row (and
// pivot row) of m that lacks it, from the references and the hypotheses
// eval-matrix kept in hypDir, and recomputes the averages; for matrices
// written before eval-matrix recorded it. The identifier must be the one
// eval-matrix used: the recomputed off-target rates are checked against
// the recorded ones. A pivot row whose outputs were not kept is left
// without (its reference columns print "–"); any other missing output is
// an error.
func AddReferenceLID(m *MatrixResult, hypDir string, det Identifier) error {
	for i := range m.Directions {
		d := &m.Directions[i]
		if d.RefLID != nil && (d.Pivot == nil || d.Pivot.RefLID != nil) {
			continue
		}
		ref, err := refFile(m, *d)
		if err != nil {
			return err
		}
		refs, err := firstLines(ref, d.Lines)
		if err != nil {
			return err
		}
		if err := addRefLID(&d.Scores, refs, filepath.Join(hypDir, hypFile(*d)), d.Tgt, det); err != nil {
			return fmt.Errorf("%s: %w", d.Direction, err)
		}
		if d.Pivot == nil {
			continue
		}
		pivotHyp := filepath.Join(hypDir, pivotHypFile(*d, m.Pivot))
		if _, err := os.Stat(textio.Resolve(pivotHyp)); errors.Is(err, fs.ErrNotExist) {
			// an archive that did not keep the pivot outputs: the pivot
			// rows' reference columns stay empty ("–") rather than the
			// whole table failing
			continue
		}
		if err := addRefLID(d.Pivot, refs, pivotHyp, d.Tgt, det); err != nil {
			return fmt.Errorf("%s via %s: %w", d.Direction, m.Pivot, err)
		}
	}
	m.Supervised, m.ZeroShot, m.PivotZeroShot = Averages(m.Directions)
	return nil
}

func addRefLID(s *Scores, refs []string, hypPath, tgt string, det Identifier) error {
	hyps, err := firstLines(hypPath, len(refs))
	if err != nil {
		return err
	}
	if err := sameRate(OffTargetFlags(hyps, tgt, det), s.OffTarget); err != nil {
		return fmt.Errorf("%s: %w", hypPath, err)
	}
	s.RefLID = ReferenceLID(hyps, refs, tgt, det)
	return nil
}

// refLIDNote explains the reference columns of the tables.
const refLIDNote = "refs off-target: share of the references the same identifier puts in another language (its error rate on the target); " +
	"off-target, ref. on target: the outputs' off-target rate over the lines whose reference it identifies as the target"

func refOffTargetCell(r *RefLID) string {
	if r == nil {
		return "–"
	}
	return pct(r.OffTarget)
}

func hypOnTargetCell(r *RefLID) string {
	if r == nil {
		return "–"
	}
	return pct(r.HypOffTarget)
}

// writeRefLID prints the identifier's error rate on the references per
// test part and target language (the same for every direction into it).
func (r *MatrixResult) writeRefLID(bw *errWriter) {
	type key struct{ part, tgt string }
	seen := map[key]bool{}
	head := false
	for _, d := range r.Directions {
		k := key{d.Part, d.Tgt}
		if d.RefLID == nil || seen[k] {
			continue
		}
		seen[k] = true
		if !head {
			bw.printf("\nLanguage identification of the references (%s), per target language\n\n", r.Detector)
			bw.printf("| test part | target | reference lines | identified as another language |\n|---|---|---:|---:|\n")
			head = true
		}
		part := d.Part
		if part == "" {
			part = filepath.Base(r.TestSet)
		}
		bw.printf("| %s | %s | %d | %s |\n", part, d.Tgt, d.Lines, pct(d.RefLID.OffTarget))
	}
}
