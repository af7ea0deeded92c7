package rundir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLastCheckpoints(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"checkpoint_900.bin", "checkpoint_1000.bin", "checkpoint_80.bin", "checkpoint_last.bin"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	got, err := LastCheckpoints(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(got[0]) != "checkpoint_900.bin" || filepath.Base(got[1]) != "checkpoint_1000.bin" {
		t.Fatalf("last two: %v", got)
	}
	if _, err := LastCheckpoints(dir, 4); err == nil {
		t.Fatal("asked for 4 of 3 numbered checkpoints without error")
	}
}

// run.json holds the data directory relative to the run; a run moved with
// its data finds it, one moved without it falls back to the absolute path,
// and old runs with an absolute data_dir are read as before.
func TestInfoDataPath(t *testing.T) {
	root := t.TempDir()
	run, data := filepath.Join(root, "runs", "a"), filepath.Join(root, "data")
	os.MkdirAll(data, 0o755)
	if err := WriteInfo(run, Info{DataDir: data}); err != nil {
		t.Fatal(err)
	}
	info, err := ReadInfo(run)
	if err != nil || info.DataDir != filepath.Join(run, "..", "..", "data") {
		t.Fatalf("read back %q, %v", info.DataDir, err)
	}
	moved := filepath.Join(t.TempDir(), "x")
	os.MkdirAll(moved, 0o755)
	if err := os.Rename(filepath.Join(root, "runs"), filepath.Join(moved, "runs")); err != nil {
		t.Fatal(err)
	}
	if info, err = ReadInfo(filepath.Join(moved, "runs", "a")); err != nil || info.DataDir != data {
		t.Fatalf("moved without its data: %q, %v; want the absolute fallback %s", info.DataDir, err, data)
	}
	os.MkdirAll(run+"2", 0o755)
	os.WriteFile(filepath.Join(run+"2", InfoFile), []byte(`{"data_dir": "`+data+`"}`), 0o644)
	if info, err = ReadInfo(run + "2"); err != nil || info.DataDir != data {
		t.Fatalf("old run.json: %q, %v", info.DataDir, err)
	}
}

// A directory without any model file is refused naming the three files
// looked for, once each, and what --model wants.
func TestResolveModelEmptyDirectory(t *testing.T) {
	dir := t.TempDir()
	_, _, err := ResolveModel(dir)
	want := dir + " holds no model.bin, checkpoint_best.bin or checkpoint_last.bin: want a run directory (strata train --save-dir) or a model file"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %q", err, want)
	}
}
