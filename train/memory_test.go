package train

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/internal/procstat"
)

// The log line and metrics.jsonl give the peak resident memory where the
// system reports it, so a deep model nearing the machine's memory shows
// it before the out-of-memory killer does.
func TestLogShowsPeakMemory(t *testing.T) {
	if procstat.PeakRSS() <= 0 {
		t.Skipf("no peak resident memory on %s", runtime.GOOS)
	}
	var log bytes.Buffer
	o := tinyOpts(t, 10)
	o.MaxUpdate, o.LogInterval, o.Log = 2, 1, &log
	task := copyTask(10)
	if _, err := Run(context.Background(), o, task, task.Valid(2)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), " | peak ") || !strings.Contains(log.String(), " GB") {
		t.Errorf("the log lacks the peak memory:\n%s", log.String())
	}
	b, err := os.ReadFile(filepath.Join(o.SaveDir, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"peak_rss_gb":`) {
		t.Errorf("metrics.jsonl lacks peak_rss_gb:\n%s", b)
	}
}
