package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/rundir"
)

// lastResume is the last resume record of a run's metrics.jsonl.
func lastResume(t *testing.T, save string) map[string]any {
	t.Helper()
	var last map[string]any
	for _, line := range strings.Split(readFile(t, filepath.Join(save, rundir.MetricsFile)), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && rec["type"] == rundir.RecordResume {
			last = rec
		}
	}
	return last
}

// Resuming records and compares the training settings: a finished run is
// left alone, a changed batch plan is refused unless
// --allow-changed-batches, other changes are named and recorded, thread
// counts are not compared, and runs without recorded settings resume.
func TestResumeComparesSettings(t *testing.T) {
	data := filepath.Join(quickstartDir(t), "data")
	save := filepath.Join(t.TempDir(), "run")
	metrics, info := filepath.Join(save, rundir.MetricsFile), filepath.Join(save, rundir.InfoFile)
	run(t, trainArgs(data, save, "--max-update", "2", "--save-interval-updates", "2")...)
	if !strings.Contains(readFile(t, info), `"max-tokens": "4096"`) {
		t.Fatalf("run.json records no settings:\n%s", readFile(t, info))
	}
	before, beforeInfo := readFile(t, metrics), readFile(t, info)
	_, errOut, err := runErr(trainArgs(data, save, "--max-update", "2", "--save-interval-updates", "2")...)
	if err != nil || !strings.Contains(errOut, "is finished") {
		t.Fatalf("rerun of a finished run: %v\n%s", err, errOut)
	}
	if readFile(t, metrics) != before || readFile(t, info) != beforeInfo {
		t.Fatal("rerunning a finished run wrote to metrics.jsonl or run.json")
	}
	for _, flag := range [][]string{{"--seed", "2"}, {"--max-tokens", "2048"}, {"--update-freq", "2"}} {
		_, _, err = runErr(trainArgs(data, save, append([]string{"--max-update", "4"}, flag...)...)...)
		if err == nil || !strings.Contains(err.Error(), flag[0]) || !strings.Contains(err.Error(), "--allow-changed-batches") {
			t.Errorf("resume with %v: %v, want a refusal naming it", flag, err)
		}
	}
	if readFile(t, metrics) != before {
		t.Fatal("a refused resume wrote to metrics.jsonl")
	}
	_, errOut, err = runErr(trainArgs(data, save, "--max-update", "4", "--lr", "0.01", "--threads", "2", "--save-interval-updates", "2")...)
	if err != nil {
		t.Fatal(err)
	}
	rec := lastResume(t, save)
	changed, _ := json.Marshal(rec["changed"])
	for _, want := range []string{"--lr", "--max-update 2 → 4"} {
		if !strings.Contains(string(changed), want) || !strings.Contains(errOut, want) {
			t.Errorf("resume record %s / log %q does not name %s", changed, errOut, want)
		}
	}
	if strings.Contains(string(changed), "threads") {
		t.Errorf("resume record %s names the thread count", changed)
	}
	run(t, trainArgs(data, save, "--max-update", "6", "--lr", "0.01", "--seed", "2", "--allow-changed-batches", "--save-interval-updates", "2")...)
	if changed, _ := json.Marshal(lastResume(t, save)["changed"]); !strings.Contains(string(changed), "--seed 1 → 2") {
		t.Errorf("resume record after --allow-changed-batches: %s", changed)
	}
	// a run written before settings were recorded resumes whatever they are
	var raw map[string]any
	json.Unmarshal([]byte(readFile(t, info)), &raw)
	delete(raw, "settings")
	b, _ := json.Marshal(raw)
	os.WriteFile(info, b, 0o644)
	run(t, trainArgs(data, save, "--max-update", "8", "--seed", "5", "--save-interval-updates", "2")...)
}

// Other data (here the same corpus under another manifest key) changes the
// batch plan: refused by default, continued and recorded with
// --allow-changed-batches.
func TestResumeOnOtherDataNeedsAllowChangedBatches(t *testing.T) {
	data := filepath.Join(quickstartDir(t), "data")
	other := filepath.Join(t.TempDir(), "data")
	if err := os.CopyFS(other, os.DirFS(data)); err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(other, "manifest.json")
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, manifest)), &m); err != nil {
		t.Fatal(err)
	}
	m["key"] = "0123456789abcdef"
	b, _ := json.Marshal(m)
	if err := os.WriteFile(manifest, b, 0o644); err != nil {
		t.Fatal(err)
	}
	save := filepath.Join(t.TempDir(), "run")
	run(t, trainArgs(data, save, "--max-update", "2", "--save-interval-updates", "2")...)
	if _, _, err := runErr(trainArgs(other, save, "--max-update", "4", "--save-interval-updates", "2")...); err == nil || !strings.Contains(err.Error(), "data:") {
		t.Fatalf("resume on other data: %v, want a refusal naming the data", err)
	}
	run(t, trainArgs(other, save, "--max-update", "4", "--save-interval-updates", "2", "--allow-changed-batches")...)
	if changed, _ := json.Marshal(lastResume(t, save)["changed"]); !strings.Contains(string(changed), "data: ") {
		t.Errorf("resume record after --allow-changed-batches on other data: %s", changed)
	}
}
