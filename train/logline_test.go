package train

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
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
	line := regexp.MustCompile(`(?m)^epoch 1 \| update 2 \| loss [0-9.]+ \| nll [0-9.]+ \| ppl [0-9.]+ \| lr [0-9.e-]+ \| gnorm [0-9.]+ \| [0-9]+ tok/s \| ETA [0-9hms.µ]+ \| peak [0-9.]+ GB$`)
	if !line.MatchString(log.String()) {
		t.Errorf("the log lacks the full line of update 2, with the peak memory:\n%s", log.String())
	}
	b, err := os.ReadFile(filepath.Join(o.SaveDir, "metrics.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"peak_rss_gb":`) {
		t.Errorf("metrics.jsonl lacks peak_rss_gb:\n%s", b)
	}
}

// A terminal's live line fits its width: the least useful fields go first
// (ppl, lr, epoch, gnorm, peak), then the line is cut; logs keep them all.
func TestLiveLineFitsTheTerminal(t *testing.T) {
	fields := []string{"epoch 1", "update 100", "loss 12.950", "nll 12.853", "ppl 7396.81", "lr 6.19e-05",
		"gnorm 1.130", "349 tok/s", "ETA 12h19m59s", "peak 6.4 GB"}
	full := "epoch 1 | update 100 | loss 12.950 | nll 12.853 | ppl 7396.81 | lr 6.19e-05 | gnorm 1.130 | 349 tok/s | ETA 12h19m59s | peak 6.4 GB"
	for _, c := range []struct {
		width int
		want  string
	}{
		{0, full},
		{len(full) + 1, full},
		{104, "epoch 1 | update 100 | loss 12.950 | nll 12.853 | gnorm 1.130 | 349 tok/s | ETA 12h19m59s | peak 6.4 GB"},
		{100, "update 100 | loss 12.950 | nll 12.853 | gnorm 1.130 | 349 tok/s | ETA 12h19m59s | peak 6.4 GB"},
		{80, "update 100 | loss 12.950 | nll 12.853 | 349 tok/s | ETA 12h19m59s | peak 6.4 GB"},
		{70, "update 100 | loss 12.950 | nll 12.853 | 349 tok/s | ETA 12h19m59s"},
		{60, "update 100 | loss 12.950 | nll 12.853 | 349 tok/s | ETA 12h"},
	} {
		if got := joinFields(fields, c.width); got != c.want {
			t.Errorf("width %d:\n got %q\nwant %q", c.width, got, c.want)
		}
	}
}
