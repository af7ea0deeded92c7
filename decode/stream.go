package decode

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"github.com/strata-nmt/strata/internal/progress"
	"github.com/strata-nmt/strata/internal/textio"
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
	// Name is how errors name the input (default "standard input").
	Name string
}

// Stream translates r line by line into w.
func (t *Translator) Stream(r io.Reader, w io.Writer, o StreamOptions) error {
	if o.Buffer <= 0 {
		o.Buffer = 2000
	}
	if err := t.CheckDirection(o.Src, o.Tgt, o.Pivot); err != nil {
		return err
	}
	if o.Name == "" {
		o.Name = textio.Name(textio.Stdin)
	}
	lr := textio.NewLineReader(r, o.Name)
	bw := bufio.NewWriterSize(w, 1<<16)
	prog := progress.New(o.Progress, "translate", int64(o.Total), progress.Options{Terminal: !o.ProgressLog, Unit: "lines"})
	tokens0 := t.Stats.Tokens
	prog.Detail = func(el float64) string { return fmt.Sprintf("%.0f tokens/s", float64(t.Stats.Tokens-tokens0)/el) }
	nbest := t.S.Options().NBest
	first := t.Stats.Lines
	for eof := false; !eof; {
		var lines []string
		for len(lines) < o.Buffer {
			l, err := lr.Next()
			if err == io.EOF {
				eof = true
				break
			} else if err != nil {
				return fmt.Errorf("reading input: %w", err)
			}
			// A line that is not UTF-8 would be tokenised as U+FFFD and
			// translated as garbage: refuse it, naming the corpus line.
			n := t.Stats.Lines - first + o.FirstLine + len(lines) + 1
			if err := textio.CheckUTF8(o.Name, n, l); err != nil {
				return err
			}
			lines = append(lines, l)
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
		prog.Add(len(lines)) // lines translated, not read
	}
	prog.Finish()
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
