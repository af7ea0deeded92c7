// Package experiments holds the tests of the study scripts' shared shell
// code: the deadline (deadline.sh), by which STOP_TIME bounds a whole
// invocation, the words for exit statuses (exitcode.sh), and the schedule
// of both studies on two cores (schedule.sh).
package experiments

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// sh runs a bash snippet with deadline.sh sourced and returns its output.
func sh(t *testing.T, script string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	// Reading the file makes go test's cache depend on it.
	if _, err := os.ReadFile("deadline.sh"); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", "-c", "log() { echo \"log: $*\"; }; . ./deadline.sh; "+script).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

func TestDurationSeconds(t *testing.T) {
	for in, want := range map[string]string{
		"90s": "90", "45m": "2700", "2h30m": "9000", "1.5h": "5400", "1m30s": "90",
		"1500ms": "1", "1ns": "0", "2h0m0s": "7200",
	} {
		if got, err := sh(t, "duration_s "+in); err != nil || got != want {
			t.Errorf("duration_s %s = %q (%v), want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"30", "2x", "h", "1h-5m"} {
		if got, err := sh(t, "duration_s "+in); err == nil {
			t.Errorf("duration_s %s = %q, want an error", in, got)
		}
	}
}

// TestStepsShareTheDeadline: a second step gets what the first left, not a
// fresh STOP_TIME, and nothing starts once it has passed.
func TestStepsShareTheDeadline(t *testing.T) {
	out, err := sh(t, `STOP_TIME=1h; deadline_start; a=$(time_left); DEADLINE=$((DEADLINE - 600)); b=$(time_left); echo "$a $b"`)
	f := strings.Fields(out)
	if err != nil || len(f) != 2 {
		t.Fatalf("%q %v", out, err)
	}
	a, _ := strconv.Atoi(strings.TrimSuffix(f[0], "s"))
	b, _ := strconv.Atoi(strings.TrimSuffix(f[1], "s"))
	// Slack for a loaded machine: the snippet itself takes time.
	if a < 3540 || a > 3600 || b < a-660 || b > a-600 {
		t.Errorf("time left %q then %q, want about 3600s then at least 600 s less", f[0], f[1])
	}
	out, err = sh(t, `STOP_TIME=1ns; deadline_start; time_left && echo started; stop_at_deadline; echo not stopped`)
	if err != nil || strings.Contains(out, "started") || strings.Contains(out, "not stopped") || !strings.Contains(out, "log: STOP_TIME=1ns has passed") {
		t.Errorf("past the deadline: %q (%v)", out, err)
	}
	if out, err := sh(t, `STOP_TIME=; deadline_start; time_left; echo "[$?]"; stop_at_deadline; echo running`); err != nil || out != "[0]\nrunning" {
		t.Errorf("no deadline: %q (%v)", out, err)
	}
	if out, err := sh(t, `STOP_TIME=90; deadline_start; echo running`); err == nil || !strings.Contains(out, "expected a duration") {
		t.Errorf("STOP_TIME=90: %q (%v), want an error", out, err)
	}
}

// TestStopAtIsAClockTime: STOP_AT sets the deadline as a clock time (for a
// script started later that must stop with the others); with STOP_TIME
// too, the earlier counts; a time date cannot read is refused.
func TestStopAtIsAClockTime(t *testing.T) {
	if out, err := exec.Command("date", "-d", "@0", "+%s").Output(); err != nil || strings.TrimSpace(string(out)) != "0" {
		t.Skip("no GNU date -d")
	}
	left := func(script string) int {
		t.Helper()
		out, err := sh(t, script+`; deadline_start; time_left`)
		if err != nil {
			t.Fatalf("%s: %q (%v)", script, out, err)
		}
		n, _ := strconv.Atoi(strings.TrimSuffix(out, "s"))
		return n
	}
	if n := left(`STOP_AT=@$(( $(date +%s) + 1800 ))`); n < 1740 || n > 1800 {
		t.Errorf("STOP_AT in 30 minutes: %d s left", n)
	}
	if n := left(`STOP_TIME=1h STOP_AT=@$(( $(date +%s) + 1800 ))`); n < 1740 || n > 1800 {
		t.Errorf("STOP_AT before STOP_TIME: %d s left, want STOP_AT's", n)
	}
	if n := left(`STOP_TIME=10m STOP_AT=@$(( $(date +%s) + 1800 ))`); n < 540 || n > 600 {
		t.Errorf("STOP_TIME before STOP_AT: %d s left, want STOP_TIME's", n)
	}
	out, err := sh(t, `STOP_AT=@$(( $(date +%s) - 5 )); deadline_start; stop_at_deadline; echo not stopped`)
	if err != nil || strings.Contains(out, "not stopped") || !strings.Contains(out, "log: STOP_AT=@") {
		t.Errorf("past STOP_AT: %q (%v)", out, err)
	}
	if out, err := sh(t, `STOP_AT=teatime-ish; deadline_start; echo running`); err == nil || !strings.Contains(out, "expected a clock time") {
		t.Errorf("STOP_AT=teatime-ish: %q (%v), want an error", out, err)
	}
}
