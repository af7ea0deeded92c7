package decode

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
)

// StreamOptions configure Stream.
type StreamOptions struct {
	Src, Tgt, Pivot string
	// Buffer is the number of lines read, sorted and translated at a time:
	// memory stays bounded by it whatever the input size, and output order
	// is input order.
	Buffer int
	// Scores prefixes each output with its score and a tab; with NBest > 1
	// every hypothesis is written as "LINE<TAB>SCORE<TAB>TEXT" (LINE
	// counting from 1) whatever Scores says.
	Scores bool
	// Progress receives a progress bar (a terminal) or, with ProgressLog,
	// a plain line every 10 seconds; nil for none.
	Progress    io.Writer
	ProgressLog bool
	// Total is the number of input lines when known (for the ETA), else 0.
	Total int
	// FirstLine is the number of corpus lines before the input (a shard's
	// start), so that n-best line numbers and messages count in the corpus.
	FirstLine int
}

// Stream translates r line by line into w.
func (t *Translator) Stream(r io.Reader, w io.Writer, o StreamOptions) error {
	if o.Buffer <= 0 {
		o.Buffer = 2000
	}
	if err := t.CheckDirection(o.Src, o.Tgt, o.Pivot); err != nil {
		return err
	}
	br := bufio.NewReaderSize(r, 1<<20)
	bw := bufio.NewWriterSize(w, 1<<16)
	prog := newProgress(o.Progress, o.ProgressLog, o.Total)
	nbest := t.S.Options().NBest
	first := t.Stats.Lines
	for eof := false; !eof; {
		var lines []string
		for len(lines) < o.Buffer {
			l, err := br.ReadString('\n')
			if err == io.EOF {
				eof = true
				if l == "" {
					break
				}
			} else if err != nil {
				return fmt.Errorf("reading input: %w", err)
			}
			lines = append(lines, strings.TrimRight(l, "\r\n"))
			if eof {
				break
			}
		}
		if len(lines) == 0 {
			break
		}
		base := t.Stats.Lines - first + o.FirstLine
		res, err := t.Lines(lines, o.Src, o.Tgt, o.Pivot)
		if err != nil {
			return fmt.Errorf("input lines %d-%d: %w", base+1, base+len(lines), err)
		}
		for i, r := range res {
			writeResult(bw, base+i+1, r, nbest, o.Scores)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
		prog.add(len(lines), t.Stats.Tokens)
	}
	prog.finish()
	return bw.Flush()
}

func writeResult(w *bufio.Writer, line int, r Result, nbest int, scores bool) {
	switch {
	case nbest > 1:
		if len(r.Hyps) == 0 { // empty input: one empty output
			fmt.Fprintf(w, "%d\t0\t%s\n", line, r.text(-1))
		}
		for k, h := range r.Hyps {
			fmt.Fprintf(w, "%d\t%s\t%s\n", line, formatScore(h.Score), r.text(k))
		}
	case scores:
		s := "0"
		if len(r.Hyps) > 0 {
			s = formatScore(r.Hyps[0].Score)
		}
		fmt.Fprintf(w, "%s\t%s\n", s, r.text(0))
	default:
		w.WriteString(r.text(0))
		w.WriteByte('\n')
	}
}

// text is hypothesis k's output: its text, then " ||| " and its word
// alignment when there is one (Marian's layout); k < 0 or beyond the
// hypotheses is an empty line's.
func (r Result) text(k int) string {
	if k < 0 || k >= len(r.Texts) {
		if r.Links != nil {
			return " ||| "
		}
		return ""
	}
	if k < len(r.Links) {
		return r.Texts[k] + " ||| " + FormatLinks(r.Links[k])
	}
	return r.Texts[k]
}

func formatScore(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// progress shows lines translated: a bar with rate and ETA on a terminal,
// a line every 10 seconds in logs.
type progress struct {
	bar   *progressbar.ProgressBar
	log   io.Writer
	total int
	done  int
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, plain bool, total int) *progress {
	p := &progress{total: total, start: time.Now(), last: time.Now()}
	switch {
	case w == nil:
	case plain:
		p.log = w
	default:
		max := int64(total)
		if total == 0 {
			max = -1
		}
		p.bar = progressbar.NewOptions64(max, progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("translate"), progressbar.OptionShowCount(),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("lines"),
			progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	return p
}

func (p *progress) add(lines, tokens int) {
	p.done += lines
	if p.bar != nil {
		p.bar.Add(lines)
		return
	}
	if p.log == nil || time.Since(p.last) < 10*time.Second {
		return
	}
	p.last = time.Now()
	el := time.Since(p.start).Seconds()
	msg := fmt.Sprintf("translate: %d lines, %.1f lines/s, %.0f tokens/s", p.done, float64(p.done)/el, float64(tokens)/el)
	if p.total > 0 {
		eta := time.Duration(float64(p.total-p.done)/(float64(p.done)/el)) * time.Second
		msg += fmt.Sprintf(", ETA %s", eta.Round(time.Second))
	}
	fmt.Fprintln(p.log, msg)
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
