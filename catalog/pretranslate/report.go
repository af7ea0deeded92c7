package pretranslate

import (
	"fmt"
	"io"
)

// Failure is a unit left untranslated because its translation was unsafe.
type Failure struct {
	Line int    // where the unit is in the file (0: unknown)
	ID   string // its source text (msgid, or the unit's id)
	Err  error
}

// Report counts what a pre-translation did.
type Report struct {
	Name string
	// Units is the number of translatable units; Done were already
	// translated and left alone.
	Units, Done int
	// Candidates were untranslated (or fuzzy, when asked): Translated of
	// them were filled; Failed were left as they were.
	Candidates, Translated int
	Failed                 []Failure
}

// Write prints one line per failure (file:line: msgid: reason) and a
// summary.
func (r *Report) Write(w io.Writer) {
	for _, f := range r.Failed {
		fmt.Fprintf(w, "%s:%d: left untranslated: %q: %v\n", r.Name, f.Line, f.ID, f.Err)
	}
	fmt.Fprintf(w, "%s: %d units, %d already translated, %d to translate: %d translated (marked for review), %d left untranslated (placeholders not kept)\n",
		r.Name, r.Units, r.Done, r.Candidates, r.Translated, len(r.Failed))
}
