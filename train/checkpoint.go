package train

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/internal/atomicfile"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
)

// State is everything besides tensors that a checkpoint must restore for a
// resumed run to continue exactly.
type State struct {
	Update     int     `json:"update"`
	Epoch      int     `json:"epoch"`
	BatchIndex int     `json:"batch_index"` // next batch of Epoch to train on
	DropSeed   uint64  `json:"drop_seed"`
	DropCount  uint64  `json:"drop_counter"`
	BestValid  float64 `json:"best_valid"` // best dev NLL, bits per token; 0 = none yet
	// BestScore is the best value of Options.BestMetric when that is a
	// score of the validation hook (BLEU): checkpoint_best and patience
	// follow it instead of the NLL.
	BestScore    float64 `json:"best_score,omitempty"`
	HasBestScore bool    `json:"has_best_score,omitempty"`
	BadValid     int     `json:"validations_without_improvement"`
	AdamStep     int     `json:"adam_step"`
}

// checkpointMeta is the JSON header; "kind" lets model.Load accept a
// checkpoint as a model file.
type checkpointMeta struct {
	Kind   string       `json:"kind"`
	Config model.Config `json:"config"`
	State  State        `json:"state"`
}

// checkpointTensors are the parameters and the optimiser's moments.
func (r *run) checkpointTensors() []*engine.Tensor {
	return append(append([]*engine.Tensor{}, r.m.Params().List()...), r.adam.State()...)
}

// saveCheckpoint writes the numbered checkpoint of this update, makes
// checkpoint_last.bin another name of it and prunes. It is collective in
// a data-parallel run: every rank checks that its parameters agree with
// rank 0's, and rank 0 writes.
func (r *run) saveCheckpoint() error {
	name := filepath.Join(r.opts.SaveDir, rundir.CheckpointName(r.st.Update))
	written, err := r.writeCheckpoint(name)
	if err != nil {
		return err
	}
	// on every rank: saveBest links this update's numbered checkpoint
	r.savedAt = r.st.Update
	if !written {
		return nil
	}
	if err := linkAtomically(name, filepath.Join(r.opts.SaveDir, rundir.LastCheckpoint)); err != nil {
		return err
	}
	return r.pruneCheckpoints()
}

// saveLast writes checkpoint_last.bin alone, a time-based save
// (Options.SaveTime) between the numbered ones: nothing to prune, nothing
// that --keep-last counts, and the next numbered save replaces it.
func (r *run) saveLast() error {
	_, err := r.writeCheckpoint(filepath.Join(r.opts.SaveDir, rundir.LastCheckpoint))
	return err
}

// writeCheckpoint writes the run's state to name (temporary file, sync,
// rename); it reports false on the ranks that do not write.
func (r *run) writeCheckpoint(name string) (bool, error) {
	// the log first: a checkpoint never gets ahead of metrics.jsonl
	if r.log != nil {
		if err := r.log.flush(); err != nil {
			return false, fmt.Errorf("%s: %w", rundir.MetricsFile, err)
		}
	}
	r.st.DropSeed, r.st.DropCount = r.g.RNGState()
	r.st.AdamStep = r.adam.Step
	meta := checkpointMeta{Kind: model.CheckpointKind, Config: r.m.Config(), State: r.st}
	tensors := r.checkpointTensors()
	if err := r.d.verifyAgreement(tensors, r.st.Update); err != nil {
		return false, err
	}
	r.savedTime = time.Now()
	if !r.d.root() {
		return false, nil
	}
	f, err := atomicfile.Create(name)
	if err != nil {
		return false, err
	}
	defer f.Abort()
	if err := engine.WriteTensors(f, meta, tensors); err != nil {
		return false, err
	}
	return true, f.Commit()
}

// linkAtomically makes dst another name of src (a hard link put in place by
// rename), so checkpoint_last.bin is never half-written and costs no copy.
func linkAtomically(src, dst string) error {
	tmp := dst + ".tmp-link"
	os.Remove(tmp)
	if err := os.Link(src, tmp); err != nil {
		return copyFile(src, dst)
	}
	return os.Rename(tmp, dst)
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(dst, b)
}

// pruneCheckpoints keeps the newest KeepLast numbered checkpoints.
func (r *run) pruneCheckpoints() error {
	if r.opts.KeepLast <= 0 {
		return nil
	}
	ups, err := rundir.Numbered(r.opts.SaveDir)
	if err != nil {
		return err
	}
	for _, n := range prunable(ups, r.opts.KeepLast, r.opts.SaveInterval, r.st.Update) {
		os.Remove(filepath.Join(r.opts.SaveDir, rundir.CheckpointName(n)))
	}
	return nil
}

// prunable returns the numbered checkpoints (ups, ascending) to remove so
// that the newest keep remain, never current (the one just written, which
// checkpoint_last.bin and checkpoint_best.bin link to; a fresh run in an
// old directory may find higher numbers from before). With a save
// interval, only checkpoints on it count: one written off it, where a time
// limit or Ctrl-C stopped the run or for a new best validation, is removed
// once it is not the current one (checkpoint_last.bin did the resuming;
// checkpoint_best.bin is a link of its own). Otherwise each stop would
// push out one of the scheduled checkpoints that a caller averages, e.g.
// the last three before a fixed budget.
func prunable(ups []int, keep, interval, current int) []int {
	var scheduled, drop []int
	for _, n := range ups {
		switch {
		case interval <= 0 || n%interval == 0:
			scheduled = append(scheduled, n)
		case n != current:
			drop = append(drop, n)
		}
	}
	for _, n := range scheduled[:max(len(scheduled)-keep, 0)] {
		if n != current {
			drop = append(drop, n)
		}
	}
	slices.Sort(drop)
	return drop
}

// restore loads checkpoint_last.bin into the run, or reports that there is
// none.
func (r *run) restore() (bool, error) {
	path := filepath.Join(r.opts.SaveDir, rundir.LastCheckpoint)
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	var meta checkpointMeta
	ts, err := engine.ReadTensors(f, &meta)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	if meta.Kind != model.CheckpointKind {
		return false, fmt.Errorf("%s: not a strata training checkpoint (kind %q)", path, meta.Kind)
	}
	if err := r.m.Config().SameArchitecture(meta.Config); err != nil {
		return false, fmt.Errorf("%s: checkpoint does not match the model being trained: %w", path, err)
	}
	if a, b := meta.Config.VocabHash, r.m.Config().VocabHash; a != "" && b != "" && a != b {
		return false, fmt.Errorf("%s: checkpoint was trained on vocabulary %s, this run's data has vocabulary %s", path, a, b)
	}
	byName := map[string]*engine.Tensor{}
	var params []*engine.Tensor
	for _, t := range ts {
		byName[t.Name] = t
		if r.m.Params().Get(t.Name) != nil {
			params = append(params, t)
		}
	}
	if err := model.SetParams(r.m, params); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	if err := r.adam.LoadState(byName, meta.State.AdamStep); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	r.st = meta.State
	r.g.SetRNGState(r.st.DropSeed, r.st.DropCount)
	return true, nil
}

// saveBest links the latest checkpoint as checkpoint_best.bin, saving it
// first unless this invocation just did.
func (r *run) saveBest() error {
	src := filepath.Join(r.opts.SaveDir, rundir.CheckpointName(r.st.Update))
	if r.savedAt != r.st.Update {
		if err := r.saveCheckpoint(); err != nil {
			return err
		}
	}
	if !r.d.root() {
		return nil
	}
	return linkAtomically(src, filepath.Join(r.opts.SaveDir, rundir.BestCheckpoint))
}
