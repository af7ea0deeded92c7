package msc

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strata-nmt/strata/internal/textio"
)

// designCommit is how docs/results.md names the commit that fixed the
// study's design: "fixed in commit `HASH` (RFC 3339 time)".
var designCommit = regexp.MustCompile("fixed in commit `([0-9a-f]{7,40})` \\(([0-9TZ:-]+)\\)")

// TestArchivedRunsStartAfterTheDesign: the study's design was written
// before any of its training, as the issue that set the study asks.
// Every archived train.log begins each piece with "--- TIME NAME ...";
// every piece of every archived system must start after the design
// commit's time that docs/results.md states, and where the checkout has
// git history, that commit must exist with that time (a shallow clone
// checks the logs against the stated time only).
func TestArchivedRunsStartAfterTheDesign(t *testing.T) {
	docs, err := os.ReadFile("../../docs/results.md")
	if err != nil {
		t.Fatal(err)
	}
	m := designCommit.FindStringSubmatch(string(docs))
	if m == nil {
		t.Fatalf("docs/results.md does not name the design commit (want %q)", designCommit)
	}
	designed, err := time.Parse(time.RFC3339, m[2])
	if err != nil {
		t.Fatalf("design commit time %q: %v", m[2], err)
	}
	checkCommitTime(t, m[1], designed)
	logs, err := filepath.Glob("results/*/train.log*")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no archived train.log under results/ (%v)", err)
	}
	for _, path := range logs {
		starts := pieceStarts(t, path)
		if len(starts) == 0 {
			t.Errorf("%s: no \"--- TIME NAME\" line", path)
		}
		for _, s := range starts {
			if !s.After(designed) {
				t.Errorf("%s: a piece started at %s, before the design (%s, %s)",
					path, s.Format(time.RFC3339), m[1], m[2])
			}
		}
	}
}

// pieceStarts reads the start time of each training piece a train.log
// (plain or gzipped) records.
func pieceStarts(t *testing.T, path string) []time.Time {
	t.Helper()
	data, err := textio.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var starts []time.Time
	for i, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "--- ") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 3 {
			t.Fatalf("%s:%d: want \"--- TIME NAME\", got %q", path, i+1, line)
		}
		at, err := time.Parse(time.RFC3339, fields[1])
		if err != nil {
			t.Fatalf("%s:%d: piece start: %v", path, i+1, err)
		}
		starts = append(starts, at)
	}
	return starts
}

// checkCommitTime: the design commit, where git and the history are here,
// was made at the time docs/results.md states.
func checkCommitTime(t *testing.T, hash string, want time.Time) {
	t.Helper()
	out, err := exec.Command("git", "show", "-s", "--format=%cI", hash+"^{commit}").Output()
	if err != nil {
		t.Logf("design commit %s not checked against git (%v): no git or a shallow clone", hash, err)
		return
	}
	got, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("git show %s: %v", hash, err)
	}
	if !got.Equal(want) {
		t.Errorf("design commit %s was made at %s, docs/results.md says %s",
			hash, got.Format(time.RFC3339), want.Format(time.RFC3339))
	}
}
