package rundir

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/strata-nmt/strata/internal/atomicfile"
	"github.com/strata-nmt/strata/model"
)

// Info is run.json in a run directory: what a later `strata translate
// --model DIR` needs besides the weights, and what a rerun into the same
// directory compares to decide whether it continues this run.
type Info struct {
	// DataDir is the data directory. In run.json it is relative to the run
	// directory, so a run moved together with its data still finds it
	// (runs written before this was so hold an absolute path, read as
	// such); ReadInfo returns it resolved.
	DataDir string `json:"data_dir"`
	// DataDirAbs is the absolute data path when the run was written: the
	// fallback for a run moved without its data.
	DataDirAbs string `json:"data_dir_absolute,omitempty"`
	// DataKey is the data manifest's key (its config and inputs) and
	// VocabHash its vocabulary's content hash.
	DataKey   string        `json:"data_key,omitempty"`
	VocabHash string        `json:"vocab_hash,omitempty"`
	Model     string        `json:"model_config_summary"`
	Config    *model.Config `json:"model_config,omitempty"`
	Command   string        `json:"command,omitempty"`
	// TrainedDirections are the directions of the training data (SRC-TGT,
	// from its manifest): the model translates from their sources into
	// their targets only. Runs written before they were recorded lack
	// them; translation then reads the data directory's manifest.
	TrainedDirections []string `json:"trained_directions,omitempty"`
	// Settings are the training settings of the last invocation, by flag
	// name (Changes compares them on resumption); runs written before
	// they were recorded lack them, and nothing is then compared.
	Settings map[string]string `json:"settings,omitempty"`
}

// WriteInfo writes dir/run.json, with the data directory relative to dir.
func WriteInfo(dir string, info Info) error {
	abs, err := filepath.Abs(info.DataDir)
	if err != nil {
		return err
	}
	absRun, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	info.DataDirAbs = abs
	if rel, err := filepath.Rel(absRun, abs); err == nil {
		info.DataDir = rel
	} else {
		info.DataDir = abs
	}
	b, _ := json.MarshalIndent(info, "", "  ")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, InfoFile), append(b, '\n'))
}

// ReadInfo reads dir/run.json and resolves its data directory: the path
// relative to dir, else the absolute path recorded beside it. When neither
// exists the error says which paths were tried.
func ReadInfo(dir string) (Info, error) {
	var info Info
	path := filepath.Join(dir, InfoFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return info, fmt.Errorf("%s is not a strata run directory: %w", dir, err)
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return info, fmt.Errorf("%s: %w", path, err)
	}
	tried := []string{}
	for _, p := range info.dataCandidates(dir) {
		if _, err := os.Stat(p); err == nil {
			info.DataDir = p
			return info, nil
		}
		tried = append(tried, p)
	}
	return info, &MissingDataError{Run: dir, Tried: tried}
}

// dataCandidates are the places the run's data directory may be, in order.
func (info Info) dataCandidates(dir string) []string {
	var out []string
	if filepath.IsAbs(info.DataDir) {
		out = append(out, info.DataDir)
	} else if info.DataDir != "" {
		out = append(out, filepath.Join(dir, info.DataDir))
	}
	if info.DataDirAbs != "" && (len(out) == 0 || info.DataDirAbs != out[0]) {
		out = append(out, info.DataDirAbs)
	}
	return out
}

// MissingDataError reports a run whose data directory is gone (moved or
// deleted): the run itself is fine, it only needs --data.
type MissingDataError struct {
	Run   string
	Tried []string
}

func (e *MissingDataError) Error() string {
	return fmt.Sprintf("the data directory of run %s is missing (run.json names %v, none exists): move it back, or give its new place with --data DIR",
		e.Run, e.Tried)
}
