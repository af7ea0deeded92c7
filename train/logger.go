package train

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/strata-nmt/strata/internal/procstat"
	"github.com/strata-nmt/strata/rundir"
)

type updateStats struct {
	loss, nll, lr, gnorm float64
	tokens               int
	layerNorms           map[string]float64 // per layer, all parameters
	sharedNorms          map[string]float64 // per layer, self-attention and FFN only
	// comm is the update's all-reduce time in a run over ranks > 1.
	comm  time.Duration
	ranks int
}

// logger writes progress for people (a live line on a terminal, a line per
// log interval otherwise) and for programs (metrics.jsonl in the run dir).
type logger struct {
	opts   Options
	out    io.Writer
	jsonl  *os.File
	buf    []byte // records not yet written
	start  time.Time
	first  int // update at start of this invocation
	tokens int
	window struct {
		loss, nll float64
		n, tokens int
		since     time.Time
	}
	pending bool // a live line is on screen
}

// newLogger returns the run's logger; one that does not write (the other
// ranks of a data-parallel run) discards everything.
func newLogger(o Options, update int, write bool) (*logger, error) {
	l := &logger{opts: o, out: o.Log, start: time.Now(), first: update}
	if l.out == nil {
		l.out = io.Discard
	}
	l.window.since = time.Now()
	if !write {
		return l, nil // a rank other than 0 of a data-parallel job
	}
	f, err := os.OpenFile(filepath.Join(o.SaveDir, rundir.MetricsFile), os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	l.jsonl = f
	if err := l.markStart(update); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

// markStart appends, to a metrics file that already has records, a
// "resume" record naming the update this invocation starts from: the file
// is only ever appended to, and rundir.ReadMetrics drops the earlier records past
// that update (written after the checkpoint resumed from), so each update
// is read once. Settings changed since the run last trained are listed
// under "changed". A last line cut short by a crash is ended first, so that
// the marker starts a line of its own.
func (l *logger) markStart(update int) error {
	st, err := l.jsonl.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := l.jsonl.ReadAt(last, st.Size()-1); err != nil {
		return err
	}
	if last[0] != '\n' {
		l.buf = append(l.buf, '\n')
	}
	rec := map[string]any{"type": rundir.RecordResume, "update": update}
	if len(l.opts.ResumeChanges) > 0 {
		rec["changed"] = l.opts.ResumeChanges
	}
	l.record(rec)
	return l.flush()
}

// record buffers one metrics line; flush writes the buffer with one write
// call, so a kill leaves whole records (bufio.Writer would split a record
// that straddles its buffer).
func (l *logger) record(rec map[string]any) {
	b, _ := json.Marshal(rec)
	l.buf = append(append(l.buf, b...), '\n')
}

// flush writes the buffered records to metrics.jsonl; checkpoints call it
// so that a run killed after a checkpoint has every record up to it.
func (l *logger) flush() error {
	if l.jsonl == nil || len(l.buf) == 0 {
		l.buf = l.buf[:0]
		return nil
	}
	_, err := l.jsonl.Write(l.buf)
	l.buf = l.buf[:0]
	return err
}

func (l *logger) update(st State, s updateStats) {
	l.tokens += s.tokens
	w := &l.window
	w.loss += s.loss * float64(s.tokens)
	w.nll += s.nll * float64(s.tokens)
	w.n++
	w.tokens += s.tokens
	el := time.Since(w.since).Seconds()
	rec := map[string]any{"type": "train", "update": st.Update, "epoch": st.Epoch, "loss": round(s.loss),
		"nll": round(s.nll), "ppl": round(math.Exp2(s.nll)), "lr": s.lr, "gnorm": round(s.gnorm), "tokens": s.tokens,
		"wall": round(time.Since(l.start).Seconds())}
	peak := procstat.PeakRSS()
	if peak > 0 {
		rec["peak_rss_gb"] = round(float64(peak) / 1e9)
	}
	if s.layerNorms != nil {
		rec["layer_grad_norms"] = s.layerNorms
		rec["layer_grad_norms_shared"] = s.sharedNorms
	}
	if s.ranks > 1 {
		rec["ranks"], rec["allreduce_s"] = s.ranks, round(s.comm.Seconds())
	}
	l.record(rec)
	every := max(l.opts.LogInterval, 1)
	if l.opts.LogIsTerminal || st.Update%every == 0 {
		loss, nll := w.loss/float64(w.tokens), w.nll/float64(w.tokens)
		fields := []string{fmt.Sprintf("epoch %d", st.Epoch), fmt.Sprintf("update %d", st.Update),
			fmt.Sprintf("loss %.3f", loss), fmt.Sprintf("nll %.3f", nll), fmt.Sprintf("ppl %.2f", math.Exp2(nll)),
			fmt.Sprintf("lr %.3g", s.lr), fmt.Sprintf("gnorm %.3f", s.gnorm),
			fmt.Sprintf("%.0f tok/s", float64(w.tokens)/max(el, 1e-9)), l.eta(st), peakField(peak)}
		if l.opts.LogIsTerminal {
			fmt.Fprintf(l.out, "\r\x1b[K%s", joinFields(fields, l.width()))
			l.pending = true
		} else {
			fmt.Fprintln(l.out, joinFields(fields, 0))
		}
		if st.Update%every == 0 {
			*w = struct {
				loss, nll float64
				n, tokens int
				since     time.Time
			}{since: time.Now()}
			l.flush()
		}
	}
}

// peakField is the log line's peak resident memory ("" when unknown).
func peakField(bytes int64) string {
	if bytes <= 0 {
		return ""
	}
	return fmt.Sprintf("peak %.1f GB", float64(bytes)/1e9)
}

// dropOrder lists the fields of a log line (epoch, update, loss, nll, ppl,
// lr, gnorm, rate, ETA, peak) that a narrow terminal loses first: ppl
// repeats nll, and the rest matter less than progress and loss.
var dropOrder = []int{4, 5, 0, 6, 9}

// joinFields joins a log line's non-empty fields with " | ". With width > 0
// (a terminal's columns) the line is fitted into width-1 columns, dropping
// fields in dropOrder and then cutting it: a live line that wraps leaves a
// copy of its first rows on every redraw.
func joinFields(fields []string, width int) string {
	keep := slices.Clone(fields)
	line := func() string {
		var parts []string
		for _, f := range keep {
			if f != "" {
				parts = append(parts, f)
			}
		}
		return strings.Join(parts, " | ")
	}
	if width <= 0 {
		return line()
	}
	for _, i := range dropOrder {
		if utf8.RuneCountInString(line()) < width {
			break
		}
		keep[i] = ""
	}
	s := line()
	if r := []rune(s); len(r) >= width {
		s = string(r[:max(width-1, 0)])
	}
	return s
}

func (l *logger) eta(st State) string {
	if l.opts.MaxTime > 0 && l.opts.MaxUpdate <= 0 {
		return fmt.Sprintf("ETA %s", (l.opts.MaxTime - time.Since(l.start)).Round(time.Second))
	}
	if l.opts.MaxUpdate <= 0 || st.Update <= l.first {
		return ""
	}
	per := time.Since(l.start) / time.Duration(st.Update-l.first)
	left := time.Duration(l.opts.MaxUpdate-st.Update) * per
	return fmt.Sprintf("ETA %s", left.Round(time.Second))
}

func (l *logger) valid(st State, loss float64, extra map[string]float64) {
	rec := map[string]any{"type": "valid", "update": st.Update, "epoch": st.Epoch, "loss": round(loss),
		"ppl": round(math.Exp2(loss)), "best": round(st.BestValid)}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		rec[k] = extra[k]
		parts = append(parts, fmt.Sprintf(" | %s %.2f", k, extra[k]))
	}
	if l.opts.scoreMetric() {
		rec["best_"+l.opts.BestMetric] = st.BestScore
		parts = append(parts, fmt.Sprintf(" | best %s %.2f", l.opts.BestMetric, st.BestScore))
	}
	l.record(rec)
	l.flush()
	l.line(fmt.Sprintf("valid | epoch %d | update %d | nll %.3f bits | ppl %.2f | best %.3f%s",
		st.Epoch, st.Update, loss, math.Exp2(loss), st.BestValid, strings.Join(parts, "")))
}

// stop appends the stop record (rundir.RecordStop) after the run's last
// checkpoint, so that readers of metrics.jsonl know whether and why it
// ended.
func (l *logger) stop(st State, reason, why string) error {
	if l == nil {
		return nil
	}
	l.record(map[string]any{"type": rundir.RecordStop, "update": st.Update, "epoch": st.Epoch, "reason": reason, "message": why})
	return l.flush()
}

// line prints a permanent message, moving past a live status line.
func (l *logger) line(s string) {
	if l.pending {
		fmt.Fprintln(l.out)
		l.pending = false
	}
	fmt.Fprintln(l.out, s)
}

func (l *logger) close() {
	if l.pending {
		fmt.Fprintln(l.out)
	}
	l.flush()
	if l.jsonl != nil {
		l.jsonl.Sync()
		l.jsonl.Close()
	}
}

func round(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return -1
	}
	return math.Round(x*1e4) / 1e4
}

// width is the terminal's current width (0: unknown).
func (l *logger) width() int {
	if l.opts.LogWidth == nil {
		return 0
	}
	return l.opts.LogWidth()
}
