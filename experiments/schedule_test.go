package experiments

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// schedule runs schedule.sh with stub study scripts that record each
// call (study, WORK, SYSTEMS, STOP_AFTER, whether STOP_AT is set) and take
// sleep seconds, or with sleep "deadline" run until the deadline has
// passed (as a study stopped by it does), and returns the calls, sorted,
// and the log.
func schedule(t *testing.T, sleep string, env ...string) ([]string, string) {
	t.Helper()
	for _, tool := range []string{"bash", "date"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	if _, err := os.ReadFile("schedule.sh"); err != nil { // the test cache follows the script
		t.Fatal(err)
	}
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls")
	stub := func(name string) string {
		p := filepath.Join(dir, name)
		wait := "sleep " + sleep
		if sleep == "deadline" {
			wait = "while [ \"$(date +%s)\" -lt \"${STOP_AT#@}\" ]; do sleep 0.1; done"
		}
		body := "#!/usr/bin/env bash\necho \"" + name + " $WORK ${SYSTEMS:-default} ${STOP_AFTER:-all} stop_at=${STOP_AT:+set}\" >>" + calls + "\n" + wait + "\n"
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cmd := exec.Command("bash", "schedule.sh")
	cmd.Env = append(os.Environ(), append([]string{"MSC_RUN=" + stub("msc"), "ZS_RUN=" + stub("zs"),
		"MSC_WORK=m", "ZS_WORK=z", "STOP_TIME=", "STOP_AT="}, env...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("schedule.sh: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(calls)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	sort.Strings(lines)
	return lines, string(out)
}

// Without a deadline every stage of both lanes runs: the MSC study twice
// on each lane (Tables 2 and 3, then every system), the zero-shot study's
// seeds and then its remaining rows on lane b.
func TestScheduleRunsEveryStage(t *testing.T) {
	calls, log := schedule(t, "0")
	want := []string{
		"msc m all all stop_at=", "msc m all all stop_at=",
		"msc m default all stop_at=", "msc m default all stop_at=",
		"zs z default all stop_at=", "zs z default seeds stop_at=",
	}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s\nlog:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"), log)
	}
}

// A stage that ends at the deadline ends its lane: nothing starts after it,
// and every stage gets the same deadline as a clock time (STOP_AT). The
// deadline leaves seconds for the first stages to start on a loaded
// machine: the deadline is counted in whole seconds, so one second could
// pass before the first stage did.
func TestScheduleStopsAtTheDeadline(t *testing.T) {
	calls, log := schedule(t, "deadline", "STOP_TIME=4s")
	want := []string{"msc m default all stop_at=set", "zs z default seeds stop_at=set"}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s\nlog:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"), log)
	}
	if !strings.Contains(log, "has passed; not starting") {
		t.Errorf("the log does not say why the next stages did not start:\n%s", log)
	}
}
