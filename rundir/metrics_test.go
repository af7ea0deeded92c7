package rundir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run's metrics can be read while it trains: an unterminated last line
// that does not parse (still being written) is left out; a broken line
// anywhere else is an error naming the file and line.
func TestReadMetricsWhileTraining(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "metrics.jsonl")
	full := `{"type":"train","update":1,"loss":9.5}` + "\n" + `{"type":"valid","update":1,"loss":9.1}` + "\n"
	for _, c := range []struct {
		name, text string
		want       int
		err        string
	}{
		{"complete", full, 2, ""},
		{"last line being written", full + `{"type":"train","upd`, 2, ""},
		{"last line complete without newline", full + `{"type":"train","update":2}`, 3, ""},
		{"broken line inside", `{"type":"train"` + "\n" + full, 0, "metrics.jsonl:1: not a metrics record"},
		{"blank lines", "\n" + full + "\n", 2, ""},
	} {
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		recs, err := ReadMetrics(dir)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && len(recs) != c.want:
			t.Errorf("%s: %d records, want %d", c.name, len(recs), c.want)
		}
	}
}
