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

// The live line asks the terminal's width at each redraw: a window
// narrowed during training gets lines that fit it from the next update on.
func TestLiveLineFollowsAResizedTerminal(t *testing.T) {
	var log bytes.Buffer
	widths := []int{200, 40, 40}
	o := tinyOpts(t, 10)
	o.MaxUpdate, o.LogInterval, o.Log, o.LogIsTerminal = 3, 1, &log, true
	o.LogWidth = func() int {
		w := widths[0]
		if len(widths) > 1 {
			widths = widths[1:]
		}
		return w
	}
	task := copyTask(10)
	if _, err := Run(context.Background(), o, task, task.Valid(2)); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, s := range strings.Split(log.String(), "\r\x1b[K") {
		if strings.HasPrefix(s, "epoch") || strings.HasPrefix(s, "update") {
			lines = append(lines, strings.SplitN(s, "\n", 2)[0])
		}
	}
	if len(lines) < 3 {
		t.Fatalf("want 3 live lines, got %q", log.String())
	}
	if !strings.Contains(lines[0], "ppl") {
		t.Errorf("update 1 at 200 columns lost fields: %q", lines[0])
	}
	for _, l := range lines[1:3] {
		if len(l) > 40 {
			t.Errorf("a line after the resize to 40 columns is %d wide: %q", len(l), l)
		}
	}
}
