package rundir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/strata-nmt/strata/internal/textio"
)

// The states of a run (Status.State).
const (
	StateNotStarted = "not_started" // no metrics, run.json or checkpoint yet
	StateTraining   = "training"    // a process is training it now (it holds the run's lock)
	StateUnfinished = "unfinished"  // ended without a stop record: killed or crashed
	StateStopped    = "stopped"     // a time limit or an interruption: resuming continues it
	StateFinished   = "finished"    // patience, max_update or max_epoch
)

// Status is where a run stands: what `strata status` prints.
type Status struct {
	Name  string `json:"name"`
	Dir   string `json:"dir"`
	State string `json:"state"`
	// Reason is the stop reason (a Stop* code) and Message says it in
	// words, when the run stopped.
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Updates int    `json:"updates"`
	Epoch   int    `json:"epoch"`
	// Best is the best validation, by the metric that picks
	// checkpoint_best.bin (nll, lower is better, or bleu, higher).
	Best *BestValid `json:"best,omitempty"`
	// LastCheckpoint is checkpoint_last.bin; nil when the directory holds
	// none (an archived run keeps no checkpoints).
	LastCheckpoint *CheckpointAt `json:"last_checkpoint,omitempty"`
	// TokensPerSecond is the target tokens trained per second of wall time
	// (validation included), over every invocation of the run.
	TokensPerSecond float64 `json:"tokens_per_second"`
	// PeakRSSGB is the most resident memory any invocation of the run
	// reached, in GB (0: not logged).
	PeakRSSGB float64 `json:"peak_rss_gb,omitempty"`
	// MaxUpdate is the run's --max-update (from run.json; 0: none), and
	// SecondsLeft the wall time to reach it at the run's speed so far
	// (0: finished, no cap, or no speed yet).
	MaxUpdate   int     `json:"max_update,omitempty"`
	SecondsLeft float64 `json:"seconds_left,omitempty"`
	// secsPerUpdate is the wall time of an update so far.
	secsPerUpdate float64
}

// BestValid is a run's best validation.
type BestValid struct {
	Metric string  `json:"metric"` // nll (bits per token) or bleu
	Value  float64 `json:"value"`
	Update int     `json:"update"`
}

// CheckpointAt is a checkpoint file and the update it was saved at.
type CheckpointAt struct {
	Path   string `json:"path"`
	Update int    `json:"update"`
}

// ReadStatus reports where the run in dir stands, from its metrics.jsonl
// (read as ReadMetrics reads it: resumptions supersede what they rewrite;
// gzipped copies are read too), its checkpoint_last.bin, and, for runs
// whose metrics end without a stop record, the last "done:" line of its
// train.log. name labels the run (the directory when empty). A directory
// that does not exist is a run not started yet; one whose lock a process
// holds is being trained (StateTraining).
func ReadStatus(name, dir string) (*Status, error) {
	st, err := ReadStatusFiles(name, dir)
	if err == nil && Locked(dir) {
		// an earlier invocation's stop is not this one's
		st.State, st.Reason, st.Message = StateTraining, "", ""
	}
	return st, err
}

// ReadStatusFiles is ReadStatus from the files alone, without asking
// whether a process holds the run's lock: what the training that holds it
// reads of its own run.
func ReadStatusFiles(name, dir string) (*Status, error) {
	if name == "" {
		name = dir
	}
	st := &Status{Name: name, Dir: dir, State: StateNotStarted}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return st, nil
	} else if err != nil {
		return nil, err
	}
	if p := filepath.Join(dir, LastCheckpoint); fileExists(p) {
		meta, err := readCheckpointMeta(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		st.LastCheckpoint = &CheckpointAt{Path: p, Update: meta.State.Update}
		st.State, st.Updates = StateUnfinished, meta.State.Update
	}
	if fileExists(filepath.Join(dir, InfoFile)) {
		st.State = StateUnfinished
	}
	if !textio.Exists(filepath.Join(dir, MetricsFile)) {
		return st, nil
	}
	recs, err := ReadMetrics(dir)
	if err != nil {
		return nil, err
	}
	st.State = StateUnfinished
	st.summarize(recs)
	if st.Reason == "" {
		if st.Reason, st.Message, err = logStop(dir); err != nil {
			return nil, err
		}
	}
	switch {
	case Finished(st.Reason):
		st.State = StateFinished
	case st.Reason != "":
		st.State = StateStopped
	}
	st.timeLeft(dir)
	return st, nil
}

// summarize reads updates, epoch, the best validation, the stop record
// and the training speed from a run's records.
func (st *Status) summarize(recs []Record) {
	bleu := false // the best checkpoint follows BLEU
	for _, r := range recs {
		if r.Type == "valid" && r.BestBLEU != nil {
			bleu = true
		}
	}
	for _, r := range recs {
		st.Updates = max(st.Updates, r.Update)
		st.PeakRSSGB = max(st.PeakRSSGB, r.PeakRSSGB)
		if r.Type != "valid" {
			st.Epoch = max(st.Epoch, r.Epoch)
			continue
		}
		st.Epoch = max(st.Epoch, r.Epoch)
		switch {
		case st.Best == nil:
			st.Best = &BestValid{Metric: "nll", Value: r.Loss, Update: r.Update}
			if bleu {
				st.Best.Metric, st.Best.Value = "bleu", r.BLEU
			}
		case bleu && r.BLEU >= st.Best.Value: // on a tie the newer, as checkpoint_best
			st.Best.Value, st.Best.Update = r.BLEU, r.Update
		case !bleu && r.Loss < st.Best.Value:
			st.Best.Value, st.Best.Update = r.Loss, r.Update
		}
	}
	if n := len(recs); n > 0 && recs[n-1].Type == RecordStop {
		st.Reason, st.Message = recs[n-1].Reason, recs[n-1].Message
	}
	st.TokensPerSecond, st.secsPerUpdate = trainingSpeed(recs)
}

// timeLeft sets MaxUpdate from the run's recorded settings and, for a run
// not finished, the time to reach it at its speed so far.
func (st *Status) timeLeft(dir string) {
	info, err := ReadInfo(dir)
	var missing *MissingDataError // the settings are there without the data
	if err != nil && !errors.As(err, &missing) {
		return
	}
	st.MaxUpdate, _ = strconv.Atoi(info.Settings["max-update"])
	if st.MaxUpdate > st.Updates && st.State != StateFinished && st.secsPerUpdate > 0 {
		st.SecondsLeft = float64(st.MaxUpdate-st.Updates) * st.secsPerUpdate
	}
}

// trainingSpeed estimates the training speed from train records, which
// may be thinned (an archived run keeps every 100th): the mean tokens of
// an update times the updates between consecutive records, over the wall
// time between them, and that wall time per update. Wall time restarts
// with each invocation, so a pair across a resumption (wall going back)
// is left out.
func trainingSpeed(recs []Record) (tokensPerSec, secsPerUpdate float64) {
	var tokens, n, updates int
	var secs float64
	var prev *Record
	for i := range recs {
		r := &recs[i]
		if r.Type != "train" {
			continue
		}
		tokens += r.Tokens
		n++
		if prev != nil && r.Update > prev.Update && r.Wall > prev.Wall {
			updates += r.Update - prev.Update
			secs += r.Wall - prev.Wall
		}
		prev = r
	}
	if n == 0 || secs == 0 {
		return 0, 0
	}
	return float64(tokens) / float64(n) * float64(updates) / secs, secs / float64(updates)
}
