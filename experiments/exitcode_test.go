package experiments

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// A training the kernel killed is reported as such (the OOM killer's
// SIGKILL, 137), not as a bare number; other statuses stay numbers.
func TestExitWordsNameTheOOMKiller(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	if _, err := os.ReadFile("exitcode.sh"); err != nil { // go test's cache follows the script
		t.Fatal(err)
	}
	for rc, want := range map[string]string{"137": "out-of-memory killer", "1": "exit 1"} {
		out, err := exec.Command("bash", "-c", ". ./exitcode.sh; exit_words "+rc).CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("exit_words %s = %q (%v), want it to say %q", rc, out, err, want)
		}
	}
}
