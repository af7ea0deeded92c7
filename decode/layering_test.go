package decode

import (
	"os/exec"
	"strings"
	"testing"
)

// decode reads run directories through rundir and never depends on train
// (the layering of the README): go list -deps ./decode names no train
// package.
func TestDecodeDoesNotDependOnTrain(t *testing.T) {
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
			t.Fatalf("decode depends on %s", p)
		}
	}
}
