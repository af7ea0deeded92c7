package rundir

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

// Existing is what a save directory already holds.
type Existing struct {
	Dir        string
	Info       *Info         // run.json, if any
	Checkpoint *model.Config // checkpoint_last.bin's model, if any
	Update     int           // checkpoint_last.bin's update
	Metrics    bool          // metrics.jsonl exists
}

// Inspect reports what dir holds of a run; nil when it holds none
// (it does not exist, or has no run.json, checkpoint or metrics).
func Inspect(dir string) (*Existing, error) {
	e := &Existing{Dir: dir}
	if _, err := os.Stat(filepath.Join(dir, InfoFile)); err == nil {
		info, err := ReadInfo(dir)
		var missing *MissingDataError
		if err != nil && !errors.As(err, &missing) {
			return nil, err
		}
		e.Info = &info
	}
	if p := filepath.Join(dir, LastCheckpoint); fileExists(p) {
		meta, err := readCheckpointMeta(p)
		if err != nil {
			return nil, err
		}
		e.Checkpoint, e.Update = &meta.Config, meta.State.Update
	}
	e.Metrics = fileExists(filepath.Join(dir, MetricsFile))
	if e.Info == nil && e.Checkpoint == nil && !e.Metrics {
		return nil, nil
	}
	return e, nil
}

// checkpointMeta holds the fields of train's checkpoint header that
// inspecting a run directory needs.
type checkpointMeta struct {
	Config model.Config `json:"config"`
	State  struct {
		Update int `json:"update"`
	} `json:"state"`
}

func readCheckpointMeta(path string) (checkpointMeta, error) {
	var meta checkpointMeta
	err := engine.ReadFileMeta(path, &meta)
	return meta, err
}

// Differences lists the model and data settings in which a new run (info,
// its model config in info.Config) differs from the existing one; empty
// means the new run may continue it. Settings that training may change on
// resumption (dropout, schedule, budget) are not compared.
func (e *Existing) Differences(now Info) []string {
	model, data := e.SplitDifferences(now)
	return append(model, data...)
}

// SplitDifferences is Differences in two parts: what the checkpoint could
// not continue (model and vocabulary), and other data under the same
// vocabulary, which only changes the batch plan.
func (e *Existing) SplitDifferences(now Info) (model, data []string) {
	old := e.Checkpoint
	if old == nil && e.Info != nil {
		old = e.Info.Config
	}
	if old != nil && now.Config != nil {
		for _, d := range old.ArchDiff(*now.Config) {
			model = append(model, "model "+d)
		}
		if a, b := old.VocabHash, now.Config.VocabHash; a != "" && b != "" && a != b {
			model = append(model, fmt.Sprintf("vocabulary of the model: %s → %s", a, b))
		}
	}
	if e.Info == nil {
		return model, nil
	}
	if a, b := e.Info.VocabHash, now.VocabHash; a != "" && b != "" && a != b {
		model = append(model, fmt.Sprintf("vocabulary: %s → %s", a, b))
	}
	if d := e.Info.dataDifference(now); d != "" {
		data = append(data, d)
	}
	return model, data
}

// dataDifference compares data directories by content (manifest key) where
// both runs recorded it, else by path: a data directory moved elsewhere is
// the same data.
func (old Info) dataDifference(now Info) string {
	switch {
	case old.DataKey != "" && now.DataKey != "":
		if old.DataKey != now.DataKey {
			return fmt.Sprintf("data: %s → %s (other corpora or preparation settings)", old.DataDir, now.DataDir)
		}
	case !samePath(old.DataDir, now.DataDir):
		return fmt.Sprintf("data: %s → %s", old.DataDir, now.DataDir)
	}
	return ""
}

func samePath(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

// MismatchError refuses to train into a directory holding another run.
type MismatchError struct {
	Dir   string
	Diffs []string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%s holds a run with other settings (%s): nothing was changed; rerun with --restart to move that run aside to a dated folder and start afresh, or choose another --save-dir",
		e.Dir, strings.Join(e.Diffs, "; "))
}

// MoveAside renames dir to a dated sibling (dir.old-YYYYMMDD-HHMMSS, with
// a counter if that exists) and returns the new name; nothing is deleted.
func MoveAside(dir string) (string, error) {
	clean := filepath.Clean(dir)
	base := clean + ".old-" + time.Now().Format("20060102-150405")
	dst := base
	for i := 2; fileExists(dst); i++ {
		dst = fmt.Sprintf("%s-%d", base, i)
	}
	if err := os.Rename(clean, dst); err != nil {
		return "", fmt.Errorf("moving the earlier run aside: %w", err)
	}
	return dst, nil
}
