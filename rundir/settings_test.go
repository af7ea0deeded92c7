package rundir

import (
	"path/filepath"
	"testing"
)

func TestChangesSplitsTheBatchPlanFromOtherSettings(t *testing.T) {
	old := map[string]string{"seed": "1", "max-tokens": "4096", "lr": "0.001", "label-smoothing": "0.1", "threads": "2"}
	now := map[string]string{"seed": "2", "max-tokens": "4096", "lr": "0.0005", "label-smoothing": "0.1", "update-freq": "2"}
	plan, other := Changes(old, now)
	if JoinChanges(plan) != "--seed 1 → 2" || JoinChanges(other) != "--lr 0.001 → 0.0005" {
		t.Errorf("plan %v other %v", plan, other)
	}
	if plan, other := Changes(nil, now); plan != nil || other != nil {
		t.Errorf("a run without recorded settings: changes %v %v, want none", plan, other)
	}
}

func TestSettingsRoundTripThroughRunJSON(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := WriteInfo(filepath.Join(dir, "run"), Info{DataDir: data, Settings: map[string]string{"seed": "3"}}); err != nil {
		t.Fatal(err)
	}
	info, _ := ReadInfo(filepath.Join(dir, "run"))
	if info.Settings["seed"] != "3" {
		t.Errorf("settings %v", info.Settings)
	}
}
