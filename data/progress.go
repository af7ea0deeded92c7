package data

import (
	"fmt"
	"io"

	"github.com/strata-nmt/strata/internal/progress"
)

// newProgress reports a step of prepare; it ends with a summary line.
func newProgress(log io.Writer, terminal bool, desc string, total int64) *progress.Reporter {
	p := progress.New(log, desc, total, progress.Options{Terminal: terminal})
	p.Summary = true
	return p
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}
