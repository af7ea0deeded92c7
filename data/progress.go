package data

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress reports a long step: a bar with rate and ETA on a terminal, and
// otherwise a log line at most every 10 seconds, so logs stay readable.
type progress struct {
	mu       sync.Mutex
	bar      *progressbar.ProgressBar
	log      io.Writer
	desc     string
	total    int64
	done     int64
	start    time.Time
	lastLine time.Time
}

func newProgress(log io.Writer, terminal bool, desc string, total int64) *progress {
	p := &progress{log: log, desc: desc, total: total, start: time.Now(), lastLine: time.Now()}
	if terminal && log != nil {
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(log),
			progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish())
	}
	return p
}

// add records n more units done; safe for concurrent use.
func (p *progress) add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += int64(n)
	if p.bar != nil {
		p.bar.Add(n)
		return
	}
	if p.log == nil || time.Since(p.lastLine) < 10*time.Second {
		return
	}
	p.lastLine = time.Now()
	el := time.Since(p.start).Seconds()
	rate := float64(p.done) / el
	eta := time.Duration(float64(p.total-p.done)/rate) * time.Second
	fmt.Fprintf(p.log, "%s: %d/%d (%.0f/s, ETA %s)\n", p.desc, p.done, p.total, rate, eta.Round(time.Second))
}

// finish ends the bar and logs the total time.
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
	if p.log != nil {
		el := time.Since(p.start)
		fmt.Fprintf(p.log, "%s: %d in %.1fs (%.0f/s)\n", p.desc, p.done, el.Seconds(), float64(p.done)/el.Seconds())
	}
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}
