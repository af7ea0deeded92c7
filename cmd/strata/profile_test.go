package main

import (
	"os"
	"path/filepath"
	"testing"
)

// --cpuprofile leaves a complete pprof file (gzip-compressed protobuf) and
// no temporary file, when the command succeeds and when it fails.
func TestCPUProfileFlag(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		args    []string
		wantErr bool
	}{
		{"ok", []string{"env"}, false},
		{"error", []string{"translate", "--model", filepath.Join(dir, "no-such-model")}, true},
	} {
		prof := filepath.Join(dir, c.name+".pprof")
		out, err := strataProcess(append(c.args, "--cpuprofile", prof)...).CombinedOutput()
		if (err != nil) != c.wantErr {
			t.Fatalf("%s: error %v, want error %v\n%s", c.name, err, c.wantErr, out)
		}
		b, err := os.ReadFile(prof)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, out)
		}
		if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Fatalf("%s: %s is not a gzip-compressed profile (%d bytes)", c.name, prof, len(b))
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}
