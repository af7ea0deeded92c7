package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/strata-nmt/strata/internal/textio"
	"github.com/strata-nmt/strata/langid"
)

// langidFlags are the options of `strata langid`.
type langidFlags struct {
	model     string
	k         int
	threshold float32
	json      bool
	workers   int
}

func init() {
	var f langidFlags
	cmd := &cobra.Command{
		Use:   "langid [FILE]",
		Short: "Identify the language of each line (fastText predict-prob compatible)",
		Long: `Identify the language of each input line (FILE, plain or gzip, or standard
input when FILE is absent or "-") with a fastText model such as lid.176.ftz.

The default output is byte-identical to
  fasttext predict-prob MODEL FILE K [THRESHOLD]
so the two can be compared with diff. --json prints one JSON object per line.
The model is found by the rule eval-matrix follows too: --model, else
$STRATA_LID_MODEL, else ../shared/models/lid.176.ftz from the repository
root; without any, or with --model fallback, a pure-Go fallback detector
(whatlanggo) is used: it is not fastText, is much less accurate, and says so
on standard error and in --json output.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := "-"
			if len(args) == 1 {
				path = args[0]
			}
			return runLangid(cmd, f, path)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.model, "model", "m", "", lidRuleHelp)
	fl.IntVar(&f.k, "k", 1, "labels per line; -1 for all labels")
	fl.Float32Var(&f.threshold, "threshold", 0, "print only labels with probability >= this")
	fl.BoolVar(&f.json, "json", false, "print one JSON object per line instead of fastText's format")
	fl.IntVar(&f.workers, "threads", 0, "compute threads (0: all cores)")
	rootCmd.AddCommand(aliases(cmd, map[string]string{"workers": "threads"}))
}

func runLangid(cmd *cobra.Command, f langidFlags, path string) error {
	if f.k == 0 || f.k < -1 {
		return fmt.Errorf("langid: --k is %d; want -1 (all labels) or at least 1", f.k)
	}
	det, fallback, err := loadIdentifier(f.model, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	in, size, err := openInput(cmd, path)
	if err != nil {
		return err
	}
	defer in.Close()
	out := bufio.NewWriterSize(cmd.OutOrStdout(), 1<<20)
	opt := langid.StreamOptions{K: f.k, Threshold: f.threshold, Workers: f.workers}
	if f.json {
		opt.Format = jsonFormatter(det.Name(), fallback)
	}
	report := langidProgress(cmd.ErrOrStderr(), size)
	opt.Progress = report.update
	err = langid.Stream(det, in, out, opt)
	if err == nil {
		err = out.Flush()
	}
	report.finish(err)
	if err != nil {
		return fmt.Errorf("langid: %s: %w", path, err)
	}
	return nil
}

func openInput(cmd *cobra.Command, path string) (io.ReadCloser, int64, error) {
	r, err := textio.OpenFrom(path, cmd.InOrStdin())
	if err != nil {
		return nil, 0, fmt.Errorf("langid: %w", err)
	}
	return r, r.Size, nil
}

// jsonLine is the --json record of one input line.
type jsonLine struct {
	Line        int64      `json:"line"`
	Predictions []jsonPred `json:"predictions"`
	Detector    string     `json:"detector"`
	Fallback    bool       `json:"fallback,omitempty"`
}

type jsonPred struct {
	Lang  string          `json:"lang"`
	Label string          `json:"label"`
	Prob  json.RawMessage `json:"prob"` // fastText's printed digits
}

func jsonFormatter(name string, fallback bool) func([]byte, int64, []langid.Prediction) []byte {
	return func(dst []byte, n int64, preds []langid.Prediction) []byte {
		rec := jsonLine{Line: n, Predictions: make([]jsonPred, len(preds)), Detector: name, Fallback: fallback}
		for i, p := range preds {
			rec.Predictions[i] = jsonPred{Lang: p.Lang(), Label: p.Label, Prob: langid.AppendProb(nil, p.Prob)}
		}
		b, _ := json.Marshal(rec) // cannot fail: plain strings and numbers
		return append(append(dst, b...), '\n')
	}
}

// langidReport shows a progress bar on a terminal and, otherwise, one
// summary line at the end (clean logs).
type langidReport struct {
	w     io.Writer
	bar   *progressbar.ProgressBar
	start time.Time
	lines int64
}

func langidProgress(w io.Writer, size int64) *langidReport {
	r := &langidReport{w: w, start: time.Now()}
	if fh, ok := w.(*os.File); ok && term.IsTerminal(int(fh.Fd())) && size > 0 {
		r.bar = progressbar.NewOptions64(size, progressbar.OptionSetWriter(w),
			progressbar.OptionShowBytes(true), progressbar.OptionSetDescription("langid"),
			progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
	}
	return r
}

func (r *langidReport) update(bytes, lines int64) {
	r.lines = lines
	if r.bar != nil {
		_ = r.bar.Set64(bytes)
	}
}

func (r *langidReport) finish(err error) {
	if r.bar != nil {
		_ = r.bar.Finish()
	}
	if err != nil {
		return
	}
	sec := time.Since(r.start).Seconds()
	fmt.Fprintf(r.w, "strata langid: %d lines in %.2fs (%.0f lines/s)\n", r.lines, sec, float64(r.lines)/max(sec, 1e-9))
}
