package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/rundir"
)

// inspect reports a run's checkpoint from its header and run.json: kind,
// weights, architecture, the parameter count of that architecture, the
// training state and the run's data; --json carries the same.
func TestInspectACheckpoint(t *testing.T) {
	runDir := filepath.Join(quickstartDir(t), "run")
	var in inspection
	if err := json.Unmarshal([]byte(run(t, "inspect", "--json", runDir)), &in); err != nil {
		t.Fatal(err)
	}
	m, err := model.New(in.Config, 1)
	if err != nil {
		t.Fatal(err)
	}
	path, _ := rundir.ModelPath(runDir)
	if in.File != path || in.Weights != "float32" || in.Parameters != m.Params().Count() || in.Run == nil || in.Run.DataDir == "" {
		t.Errorf("inspect --json: %+v", in)
	}
	if in.Kind == "checkpoint" && (in.State == nil || in.State.Update == 0) {
		t.Errorf("a checkpoint without its training state: %+v", in.State)
	}
	text := run(t, "inspect", runDir)
	for _, want := range []string{"file         " + path + " (" + in.Kind + ", float32 weights", "model        " + in.Config.Summary(), "parameters   ", "data         "} {
		if !strings.Contains(text, want) {
			t.Errorf("inspect lacks %q:\n%s", want, text)
		}
	}
	if _, _, err := runErr("inspect", filepath.Join(quickstartDir(t), "corpus")); err == nil || !strings.Contains(err.Error(), "want a run directory") {
		t.Errorf("inspect of a directory without a model: %v", err)
	}
}
