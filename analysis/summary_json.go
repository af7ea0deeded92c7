package analysis

import (
	"encoding/json"
	"io"
	"strings"
)

// SummarySystem is one system of the summary table in JSON (`strata
// eval-matrix table --json`): the numbers of SummaryMarkdownReported's row,
// unrounded, for scripts that would otherwise read the Markdown.
type SummarySystem struct {
	Name       string  `json:"name"`
	ZeroShot   Average `json:"zero_shot"`
	Supervised Average `json:"supervised"`
	// Pivot is the hub language and PivotZeroShot the zero-shot average
	// through it, for a matrix evaluated with pivoting.
	Pivot         string        `json:"pivot,omitempty"`
	PivotZeroShot *Average      `json:"pivot_zero_shot,omitempty"`
	Reported      *Reported     `json:"reported,omitempty"`
	Significance  *Significance `json:"significance,omitempty"`
}

// SummaryJSON writes rows as a JSON array of SummarySystem, with the
// published scores of reported (by name, as in SummaryMarkdownReported).
func SummaryJSON(w io.Writer, rows []SummaryRow, reported map[string]Reported) error {
	out := make([]SummarySystem, 0, len(rows))
	for _, r := range rows {
		s := SummarySystem{Name: r.Name, ZeroShot: r.Result.ZeroShot, Supervised: r.Result.Supervised,
			PivotZeroShot: r.Result.PivotZeroShot, Significance: r.Sig}
		if s.PivotZeroShot != nil {
			s.Pivot = r.Result.Pivot
		}
		s.Reported = reportedFor(reported, r.Name)
		out = append(out, s)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// reportedFor returns the published scores of a system: by its name, or
// by the name before "@" (a snapshot's label, NAME@UPDATE); nil if none.
func reportedFor(reported map[string]Reported, name string) *Reported {
	base, _, _ := strings.Cut(name, "@")
	for _, k := range []string{name, base} {
		if v, ok := reported[k]; ok {
			return &v
		}
	}
	return nil
}
