package backendtest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// TestConformance runs the suite on every registered backend, on one
// thread and on three (the CPU backend splits rows over threads).
func TestConformance(t *testing.T) {
	for _, b := range engine.Backends() {
		for _, threads := range []int{1, 3} {
			t.Run(b+"/"+string(rune('0'+threads)), func(t *testing.T) { Run(t, b, threads) })
		}
	}
}

// isaChild marks a process this test started with STRATA_ISA set.
const isaChild = "STRATA_BACKENDTEST_ISA_CHILD"

// TestConformanceISA re-runs TestConformance in a fresh process per
// instruction-set level (the level is chosen once, at start-up), skipping
// the levels this CPU lacks.
func TestConformanceISA(t *testing.T) {
	if os.Getenv(isaChild) != "" {
		t.Skip("in a child run")
	}
	if testing.Short() {
		t.Skip("short: one process per instruction-set level")
	}
	for _, name := range engine.ISAs() {
		t.Run(name, func(t *testing.T) {
			level, err := cpu.ParseISA(name)
			if err != nil {
				t.Fatal(err)
			}
			if cpu.Detected.Level() < level {
				t.Skipf("this CPU (or build) lacks %s: detected %s", name, cpu.Detected.Level())
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestConformance$", "-test.count=1")
			cmd.Env = append(os.Environ(), "STRATA_ISA="+name, isaChild+"=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("STRATA_ISA=%s: %v\n%s", name, err, out)
			}
			t.Logf("STRATA_ISA=%s: conformance passed", name)
		})
	}
}
