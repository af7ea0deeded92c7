package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The quickstart's next steps name a command that runs: go run's binary
// is gone once it exits, so go run is named again.
func TestSelfCommandAfterGoRun(t *testing.T) {
	repo := t.TempDir()
	os.MkdirAll(filepath.Join(repo, "cmd", "strata"), 0o755)
	for _, c := range []struct{ arg0, wd, want string }{
		{"/tmp/go-build1234/b001/exe/strata", repo, "go run ./cmd/strata"},
		{"/tmp/go-build1234/b001/exe/strata", t.TempDir(), "go run github.com/strata-nmt/strata/cmd/strata"},
		{"strata", repo, "strata"},
		{"./bin/strata", repo, "./bin/strata"},
		{"/opt/my tools/strata", repo, "'/opt/my tools/strata'"},
	} {
		if got := selfCommand(c.arg0, c.wd); got != c.want {
			t.Errorf("%s in %s: %q, want %q", c.arg0, c.wd, got, c.want)
		}
	}
	if got := shellQuote("it's"); got != `'it'\''s'` {
		t.Errorf("shellQuote: %s", got)
	}
}
