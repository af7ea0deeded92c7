package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/strata-nmt/strata/rundir"
)

func init() {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status [--json] RUN... (RUN: a run directory, or NAME=DIR)",
		Short: "Where runs stand: updates, best validation, last checkpoint, speed, finished or not",
		Long: `Prints one row per run directory: its updates and epoch, its best validation
(NLL in bits per token, or BLEU when --best-checkpoint-metric bleu picks the
best checkpoint) and the update it was reached at, checkpoint_last.bin and its
update, the training speed in target tokens per second, and its state:
training (a strata train holds the run's lock now), finished (patience ran
out, or the max-update or max-epoch cap was reached), stopped (a time limit
or an interruption: rerunning the training continues it), unfinished (ended
without saying why: killed or crashed; rerunning continues it from its last
checkpoint), or not started; and, for a run with --max-update that has not
finished, the wall time to reach it at the run's speed so far.

metrics.jsonl is read as analyze curves reads it: a resumed run's records
supersede those written after the checkpoint it resumed from. Archived runs
work too: metrics.jsonl and train.log may be gzipped (metrics.jsonl.gz), and
a run whose metrics predate stop records is judged by the last "done:" line
of its train.log. A directory that does not exist is a run not started.

Markdown on standard output; --json prints a JSON array of the same fields.`,
		Example: `  strata status runs/base
  strata status --json pre=runs/pre post=runs/post`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var sts []*rundir.Status
			for _, a := range args {
				name, dir, ok := strings.Cut(a, "=")
				if !ok {
					name, dir = a, a
				} else if name == "" || dir == "" {
					return fmt.Errorf("status: argument %q: want DIR or NAME=DIR", a)
				}
				st, err := rundir.ReadStatus(name, dir)
				if err != nil {
					return err
				}
				sts = append(sts, st)
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(sts)
			}
			return statusMarkdown(cmd.OutOrStdout(), sts)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array, one object per run")
	rootCmd.AddCommand(cmd)
}

// statusMarkdown prints the runs as a Markdown table.
func statusMarkdown(w io.Writer, sts []*rundir.Status) error {
	var b strings.Builder
	b.WriteString("| run | state | updates | epoch | best valid | at update | last checkpoint | tokens/s | peak memory | to go |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---|---:|---:|---:|\n")
	for _, s := range sts {
		best, at := "–", "–"
		if s.Best != nil {
			// four decimals, as metrics.jsonl holds it
			best, at = fmt.Sprintf("%s %.4f", s.Best.Metric, s.Best.Value), fmt.Sprint(s.Best.Update)
			if s.Best.Metric == "bleu" {
				best = fmt.Sprintf("BLEU %.2f", s.Best.Value)
			}
		}
		ckpt := "–"
		if c := s.LastCheckpoint; c != nil {
			ckpt = fmt.Sprintf("update %d", c.Update)
		}
		speed := "–"
		if s.TokensPerSecond > 0 {
			speed = fmt.Sprintf("%.0f", s.TokensPerSecond)
		}
		peak := "–"
		if s.PeakRSSGB > 0 {
			peak = fmt.Sprintf("%.1f GB", s.PeakRSSGB)
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |\n", s.Name, stateCell(s), s.Updates, s.Epoch, best, at, ckpt, speed, peak, toGo(s))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// toGo is the wall time left to the run's --max-update at its speed so
// far ("–" where it is finished, has no cap, or no speed yet).
func toGo(s *rundir.Status) string {
	if s.SecondsLeft <= 0 {
		return "–"
	}
	d := time.Duration(s.SecondsLeft * float64(time.Second)).Round(time.Minute)
	left := strings.TrimSuffix(d.String(), "0s")
	if d < time.Minute {
		left = "under 1m"
	}
	return fmt.Sprintf("%s to %d", left, s.MaxUpdate)
}

// stateCell says the state in words, with the reason of a stop.
func stateCell(s *rundir.Status) string {
	state := strings.ReplaceAll(s.State, "_", " ")
	if s.Message != "" {
		state += " (" + s.Message + ")"
	}
	return state
}
