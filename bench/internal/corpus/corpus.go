// Package corpus reads the benchmark programs' inputs.
package corpus

import (
	"fmt"
	"strings"

	"github.com/strata-nmt/strata/internal/textio"
)

// Sentences returns the first n non-blank lines of path (all of them when
// n <= 0), trimmed: the sentences a benchmark sends or decodes. A file
// without any is an error.
func Sentences(path string, n int) ([]string, error) {
	lines, err := textio.ReadLines(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range lines {
		if n > 0 && len(out) == n {
			break
		}
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no sentences", textio.Name(path))
	}
	return out, nil
}
