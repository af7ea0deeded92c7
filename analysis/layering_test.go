package analysis

import (
	"os/exec"
	"strings"
	"testing"
)

// analysis reads runs through rundir (metrics.jsonl) and trains its probes
// with optim's Adam, so it never depends on train: go list -deps ./analysis
// names no train package.
func TestAnalysisDoesNotDependOnTrain(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "github.com/strata-nmt/strata/train" || strings.HasPrefix(p, "github.com/strata-nmt/strata/train/") {
			t.Fatalf("analysis depends on %s", p)
		}
	}
}
