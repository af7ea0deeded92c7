package rundir

import (
	"os"
	"path/filepath"
	"testing"
)

// A resume record supersedes the records past its update, and a line a
// crash cut short just before it is not an error.
func TestReadMetricsResume(t *testing.T) {
	p := filepath.Join(t.TempDir(), MetricsFile)
	os.WriteFile(p, []byte(`{"type":"train","update":1}
{"type":"train","update":2}
{"type":"train","update":3}
{"type":"train","upd
{"type":"resume","update":2}
{"type":"train","update":3,"loss":7}
`), 0o644)
	recs, err := ReadMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[2].Update != 3 || recs[2].Loss != 7 {
		t.Fatalf("read %+v, want updates 1, 2 and the resumed 3", recs)
	}
	os.WriteFile(p, []byte("{\"type\":\"train\",\"update\":1}\nnot json\n{\"type\":\"train\",\"update\":2}\n"), 0o644)
	if _, err := ReadMetrics(p); err == nil {
		t.Fatal("a bad line that no resume follows was accepted")
	}
}
