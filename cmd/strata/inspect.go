package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
	"github.com/strata-nmt/strata/train"
)

// inspection is what `strata inspect` reports of a model or checkpoint.
type inspection struct {
	File       string         `json:"file"`
	Kind       string         `json:"kind"` // model or checkpoint
	Weights    string         `json:"weights"`
	Bytes      int64          `json:"bytes"`
	Model      string         `json:"model"`
	Parameters int            `json:"parameters"`
	Config     model.Config   `json:"config"`
	State      *train.State   `json:"training_state,omitempty"`
	Run        *rundir.Info   `json:"run,omitempty"`
	Extra      map[string]any `json:"extra,omitempty"`
}

func init() {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inspect MODEL_OR_RUN [--json]",
		Short: "What a model file or checkpoint holds: architecture, parameters, weight format, training state, its run",
		Long: `Prints what a model file or training checkpoint holds, from its header and
run.json, without translating anything: the architecture (every model
setting), the number of parameters, the weight format (float32, or int8
after strata quantize) and the file's size; for a checkpoint its training
state (update, epoch, best validation, Adam's step); and, when the file is
in a run directory, the run's data directory, vocabulary and training
command. A run directory stands for its model.bin, else checkpoint_best.bin,
else checkpoint_last.bin, as translate reads it. --json prints one object.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := inspectModel(args[0])
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(in)
			}
			printInspection(cmd.OutOrStdout(), in)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	rootCmd.AddCommand(cmd)
}

// inspectModel reads a model or checkpoint file's header (and its run's
// run.json); the parameters are counted from the header's shapes, not read.
func inspectModel(p string) (*inspection, error) {
	path, runDir, err := rundir.ResolveModel(p)
	if err != nil {
		return nil, err
	}
	var meta struct {
		Kind   string         `json:"kind"`
		Config model.Config   `json:"config"`
		State  *train.State   `json:"state"`
		Extra  map[string]any `json:"extra"`
	}
	if err := engine.ReadFileMeta(path, &meta); err != nil {
		return nil, err
	}
	kind := map[string]string{model.ModelKind: "model", model.CheckpointKind: "checkpoint"}[meta.Kind]
	if kind == "" {
		return nil, fmt.Errorf("%s: a tensor file of kind %q, not a strata model or checkpoint", path, meta.Kind)
	}
	format, err := engine.FileFormat(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	params, err := model.FileParameterCount(path)
	if err != nil {
		return nil, err
	}
	in := &inspection{File: path, Kind: kind, Weights: format.String(), Bytes: st.Size(), Model: meta.Config.Summary(),
		Parameters: params, Config: meta.Config, State: meta.State, Extra: meta.Extra}
	if info, err := rundir.ReadInfo(runDir); err == nil {
		in.Run = &info
	}
	return in, nil
}

// printInspection writes the inspection as aligned lines.
func printInspection(w io.Writer, in *inspection) {
	fmt.Fprintf(w, "file         %s (%s, %s weights, %.1f MB)\n", in.File, in.Kind, in.Weights, float64(in.Bytes)/1e6)
	fmt.Fprintf(w, "model        %s\n", in.Model)
	fmt.Fprintf(w, "parameters   %s\n", thousands(in.Parameters))
	if in.Config.Arch != "transformer" {
		fmt.Fprintf(w, "deep         %s\n", deepSettings(in.Config.Deep))
	}
	fmt.Fprintf(w, "dropout      %g (attention %g, activation %g); vocabulary hash %s\n",
		in.Config.Dropout, in.Config.AttentionDropout, in.Config.ActivationDropout, in.Config.VocabHash)
	if s := in.State; s != nil {
		best := "none yet"
		if s.BestValid != 0 {
			best = fmt.Sprintf("nll %.3f bits", s.BestValid)
		}
		if s.HasBestScore {
			best += fmt.Sprintf(", score %.2f", s.BestScore)
		}
		fmt.Fprintf(w, "training     update %d, epoch %d, best validation %s, %d validations without improvement, Adam step %d\n",
			s.Update, s.Epoch, best, s.BadValid, s.AdamStep)
	}
	if r := in.Run; r != nil {
		fmt.Fprintf(w, "run          %s\n", filepath.Dir(in.File))
		fmt.Fprintf(w, "data         %s (vocabulary hash %s; trained %s)\n", r.DataDir, r.VocabHash, strings.Join(r.TrainedDirections, ", "))
		if r.Command != "" {
			fmt.Fprintf(w, "command      %s\n", r.Command)
		}
	}
}

// deepSettings spells the deep-model settings as --set takes them
// (deep.fusion=gate, ...), in name order.
func deepSettings(d model.DeepConfig) string {
	b, err := yaml.Marshal(d)
	var m map[string]any
	if err == nil {
		err = yaml.Unmarshal(b, &m)
	}
	if err != nil {
		return err.Error()
	}
	keys := slices.Sorted(maps.Keys(m))
	for i, k := range keys {
		keys[i] = fmt.Sprintf("deep.%s=%v", k, m[k])
	}
	return strings.Join(keys, " ")
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
