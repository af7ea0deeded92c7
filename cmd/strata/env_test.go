package main

import (
	"strings"
	"testing"
)

// strata env names the instruction set the kernels run with, and
// STRATA_ISA=go brings it down to the pure-Go references.
func TestEnvPrintsKernelSet(t *testing.T) {
	cmd := strataProcess("env")
	cmd.Env = append(cmd.Env, "STRATA_ISA=go")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("strata env: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "kernels       go (none;") {
		t.Fatalf("strata env under STRATA_ISA=go: no \"kernels       go (none; ...\" line in\n%s", out)
	}
}
