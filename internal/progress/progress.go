// Package progress reports long work: a bar with count, rate and ETA on a
// terminal, and otherwise a plain line at most every 10 seconds, so that
// logs stay readable. data (prepare) and decode (translate) share it.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Reporter counts units of work done; safe for concurrent use.
type Reporter struct {
	mu       sync.Mutex
	bar      *progressbar.ProgressBar
	log      io.Writer
	desc     string
	total    int64
	done     int64
	start    time.Time
	lastLine time.Time
	// Detail, when set, adds to each plain log line (e.g. tokens/s); it
	// receives the seconds elapsed.
	Detail func(elapsed float64) string
	// Summary makes Finish print a line with the count and the rate.
	Summary bool
}

// Options say where and how to report.
type Options struct {
	// Terminal draws a bar on w; otherwise plain lines go to w.
	Terminal bool
	// Unit names what is counted on the bar ("lines"); empty: "it".
	Unit string
}

// New reports to w (nil: nowhere) work of total units (0: unknown, no ETA)
// described as desc.
func New(w io.Writer, desc string, total int64, o Options) *Reporter {
	p := &Reporter{log: w, desc: desc, total: total, start: time.Now(), lastLine: time.Now()}
	if o.Terminal && w != nil {
		max := total
		if total <= 0 {
			max = -1
		}
		opts := []progressbar.Option{progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100 * time.Millisecond), progressbar.OptionClearOnFinish()}
		if o.Unit != "" {
			opts = append(opts, progressbar.OptionSetItsString(o.Unit))
		}
		p.bar = progressbar.NewOptions64(max, opts...)
	}
	return p
}

// Add records n more units done.
func (p *Reporter) Add(n int) {
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
	msg := fmt.Sprintf("%s: %d", p.desc, p.done)
	if p.total > 0 {
		msg += fmt.Sprintf("/%d", p.total)
	}
	msg += fmt.Sprintf(" (%.1f/s", rate)
	if p.Detail != nil {
		msg += ", " + p.Detail(el)
	}
	if p.total > 0 && rate > 0 {
		eta := time.Duration(float64(p.total-p.done)/rate) * time.Second
		msg += fmt.Sprintf(", ETA %s", eta.Round(time.Second))
	}
	fmt.Fprintln(p.log, msg+")")
}

// Finish ends the bar and, with Summary, logs the count and rate.
func (p *Reporter) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Finish()
	}
	if p.Summary && p.log != nil {
		el := time.Since(p.start)
		fmt.Fprintf(p.log, "%s: %d in %.1fs (%.0f/s)\n", p.desc, p.done, el.Seconds(), float64(p.done)/el.Seconds())
	}
}
