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
// study's design: "fixed in commit `HASH` (YYYY-MM-DD)", its UTC day.
var designCommit = regexp.MustCompile("fixed in commit `([0-9a-f]{7,40})` \\((\\d{4}-\\d\\d-\\d\\d)\\)")

// TestArchivedRunsStartAfterTheDesign: the study's design was written
// before any of its training, as the issue that set the study asks.
// Every archived train.log begins each piece with "--- TIME NAME ...";
// every piece of every archived system must start after the design
// commit docs/results.md names. Where the checkout has git history, the
// commit must exist, made on the day the docs state, and the pieces start
// after its time; without it (a shallow clone) they start after that day.
func TestArchivedRunsStartAfterTheDesign(t *testing.T) {
	docs, err := os.ReadFile("../../docs/results.md")
	if err != nil {
		t.Fatal(err)
	}
	m := designCommit.FindStringSubmatch(string(docs))
	if m == nil {
		t.Fatalf("docs/results.md does not name the design commit (want %q)", designCommit)
	}
	day, err := time.Parse(time.DateOnly, m[2])
	if err != nil {
		t.Fatalf("design commit day %q: %v", m[2], err)
	}
	designed := commitTime(t, m[1], day)
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
					path, s.Format(time.RFC3339), m[1], designed.Format(time.RFC3339))
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

// commitTime is the design commit's time from git, which must fall on
// the UTC day the docs state; without git or the history, the end of that
// day.
func commitTime(t *testing.T, hash string, day time.Time) time.Time {
	t.Helper()
	out, err := exec.Command("git", "show", "-s", "--format=%cI", hash+"^{commit}").Output()
	if err != nil {
		if fullHistory() {
			t.Errorf("design commit %s: not in this checkout's history (%v)", hash, err)
		} else {
			t.Logf("design commit %s not checked by git (%v): no git or a shallow clone; "+
				"the logs are checked against the end of %s", hash, err, day.Format(time.DateOnly))
		}
		return day.Add(24 * time.Hour)
	}
	at, err := time.Parse(time.RFC3339, strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("git show %s: %v", hash, err)
	}
	if got := at.UTC().Format(time.DateOnly); got != day.Format(time.DateOnly) {
		t.Errorf("design commit %s was made on %s, docs/results.md says %s",
			hash, got, day.Format(time.DateOnly))
	}
	return at
}

// fullHistory: git is here and the checkout is not a shallow clone.
func fullHistory() bool {
	out, err := exec.Command("git", "rev-parse", "--is-shallow-repository").Output()
	return err == nil && strings.TrimSpace(string(out)) == "false"
}
