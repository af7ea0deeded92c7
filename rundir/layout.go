// Package rundir is the layout of a run directory, the one place that knows
// it: the names of its files (checkpoints, the exported model, run.json,
// metrics.jsonl), run.json itself, which model file a run directory stands
// for, and what a directory already holds of a run. It sits low (it needs
// only model and engine), so training writes run directories and decoding,
// serving and analysis read them without one importing the other.
package rundir

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
)

// The files of a run directory.
const (
	InfoFile       = "run.json"
	MetricsFile    = "metrics.jsonl"
	LastCheckpoint = "checkpoint_last.bin"
	BestCheckpoint = "checkpoint_best.bin"
	// ModelFile is an exported model, preferred over the checkpoints.
	ModelFile = "model.bin"
)

// CheckpointName is the numbered checkpoint of an update.
func CheckpointName(update int) string { return fmt.Sprintf("checkpoint_%d.bin", update) }

var numbered = regexp.MustCompile(`^checkpoint_(\d+)\.bin$`)

// Numbered returns the updates of dir's numbered checkpoints
// (checkpoint_UPDATE.bin), in increasing order.
func Numbered(dir string) ([]int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ups []int
	for _, e := range ents {
		if m := numbered.FindStringSubmatch(e.Name()); m != nil {
			n, _ := strconv.Atoi(m[1])
			ups = append(ups, n)
		}
	}
	sort.Ints(ups)
	return ups, nil
}

// LastCheckpoints returns the paths of the n numbered checkpoints of dir
// with the highest updates, oldest first.
func LastCheckpoints(dir string, n int) ([]string, error) {
	ups, err := Numbered(dir)
	if err != nil {
		return nil, err
	}
	if len(ups) < n {
		return nil, fmt.Errorf("%s holds %d numbered checkpoints (checkpoint_UPDATE.bin), fewer than the %d asked for", dir, len(ups), n)
	}
	var out []string
	for _, u := range ups[len(ups)-n:] {
		out = append(out, filepath.Join(dir, CheckpointName(u)))
	}
	return out, nil
}

// BestModelPath returns the checkpoint a run directory's users should load:
// checkpoint_best.bin, else checkpoint_last.bin.
func BestModelPath(dir string) (string, error) {
	for _, n := range []string{BestCheckpoint, LastCheckpoint} {
		p := filepath.Join(dir, n)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s holds no %s or %s", dir, BestCheckpoint, LastCheckpoint)
}

// ResolveModel returns the model file p stands for and its run directory:
// p itself when it is a file (its directory being the run), else the run
// directory's model.bin, else checkpoint_best.bin, else checkpoint_last.bin.
func ResolveModel(p string) (path, runDir string, err error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", "", fmt.Errorf("model: %w", err)
	}
	if !st.IsDir() {
		return p, filepath.Dir(p), nil
	}
	if _, err := os.Stat(filepath.Join(p, ModelFile)); err == nil {
		return filepath.Join(p, ModelFile), p, nil
	}
	best, err := BestModelPath(p)
	if err != nil {
		return "", "", fmt.Errorf("%s holds no %s, %s or %s: want a run directory (strata train --save-dir) or a model file",
			p, ModelFile, BestCheckpoint, LastCheckpoint)
	}
	return best, p, nil
}

// ModelPath is the model file a file or run directory stands for.
func ModelPath(p string) (string, error) {
	path, _, err := ResolveModel(p)
	return path, err
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
