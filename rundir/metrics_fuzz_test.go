package rundir

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadMetrics: any metrics.jsonl gives records or an error naming the
// file; never a panic. A complete file (ending in a newline) has one record
// per non-blank line. Seeds include the metrics.jsonl of a quickstart run.
func FuzzReadMetrics(f *testing.F) {
	f.Add([]byte(`{"type":"train","update":100,"epoch":1,"loss":5.2,"lr":0.001,"gnorm":1.5,"tokens":4000,"wall":12.5}` + "\n" +
		`{"type":"valid","update":100,"nll":4.1,"ppl":17.1,"bleu":3.2,"layer_grad_norms":{"encoder.layers.0":0.5}}` + "\n"))
	f.Add([]byte("\n  \n{\"type\":\"train\"}\n{\"type\":\"tra"))
	f.Add([]byte("not json\n"))
	path := filepath.Join(f.TempDir(), "metrics.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		recs, err := ReadMetrics(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if !bytes.HasSuffix(b, []byte("\n")) {
			return
		}
		n := 0
		for _, l := range bytes.Split(b, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				n++
			}
		}
		if len(recs) != n {
			t.Fatalf("%d records from %d non-blank lines", len(recs), n)
		}
	})
}
