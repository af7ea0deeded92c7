package train

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/internal/atomicfile"
	"github.com/strata-nmt/strata/model"
)

// DataSource adapts a data.Batcher (a prepared data directory) to Source.
type DataSource struct{ B *data.Batcher }

// Epoch implements Source.
func (s DataSource) Epoch(e int) (int, func(int) model.Batch) {
	plan := s.B.Plan(e)
	return len(plan), func(i int) model.Batch { return ModelBatch(s.B.Make(plan[i])) }
}

// ModelBatch converts a data batch to the model's.
func ModelBatch(b *data.Batch) model.Batch {
	return model.Batch{Src: b.Src, TgtIn: b.TgtIn, TgtOut: b.TgtOut, B: b.B, S: b.S, T: b.T}
}

// ValidBatches returns the fixed batches of a split.
func ValidBatches(ds *data.Dataset, split string, maxTokens int) ([]model.Batch, error) {
	sp, err := ds.Split(split)
	if err != nil {
		return nil, err
	}
	b, err := data.NewBatcher(sp, ds.Sequencer(), data.BatcherOptions{MaxTokens: maxTokens, Fixed: true})
	if err != nil {
		return nil, err
	}
	var out []model.Batch
	for _, idx := range b.Plan(1) {
		out = append(out, ModelBatch(b.Make(idx)))
	}
	return out, nil
}

// RunInfo is run.json in a run directory: what a later `strata translate
// --model DIR` needs besides the weights.
type RunInfo struct {
	DataDir string `json:"data_dir"`
	Model   string `json:"model_config_summary"`
	Command string `json:"command,omitempty"`
}

// RunInfoFile is the name of the run description in a run directory.
const RunInfoFile = "run.json"

// WriteRunInfo records the run's data directory (absolute) in dir/run.json.
func WriteRunInfo(dir string, info RunInfo) error {
	abs, err := filepath.Abs(info.DataDir)
	if err != nil {
		return err
	}
	info.DataDir = abs
	b, _ := json.MarshalIndent(info, "", "  ")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, RunInfoFile), append(b, '\n'))
}

// ReadRunInfo reads dir/run.json.
func ReadRunInfo(dir string) (RunInfo, error) {
	var info RunInfo
	b, err := os.ReadFile(filepath.Join(dir, RunInfoFile))
	if err != nil {
		return info, fmt.Errorf("%s is not a strata run directory: %w", dir, err)
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return info, fmt.Errorf("%s: %w", filepath.Join(dir, RunInfoFile), err)
	}
	return info, nil
}

// BestModelPath returns the checkpoint a run directory's users should load:
// checkpoint_best.bin, else checkpoint_last.bin.
func BestModelPath(dir string) (string, error) {
	for _, n := range []string{bestName, lastName} {
		p := filepath.Join(dir, n)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s holds no %s or %s", dir, bestName, lastName)
}
