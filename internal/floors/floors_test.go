package floors

import (
	"os/exec"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	m := Module + "/"
	allowed := [][2]string{
		{m + "train", m + "engine"},
		{m + "decode", m + "rundir"},
		{m + "catalog/pretranslate", m + "catalog/po"},
		{m + "cmd/strata", m + "serve"},
		{m + "engine", m + "engine/blas"},
		{m + "engine", "golang.org/x/sys/cpu"},
	}
	for _, c := range allowed {
		if err := Check(c[0], c[1]); err != nil {
			t.Errorf("%s → %s refused: %v", c[0], c[1], err)
		}
	}
	refused := [][2]string{
		{m + "engine", m + "model"},         // upward
		{m + "analysis", m + "train"},       // kept apart
		{m + "serve", m + "train"},          // kept apart
		{m + "train", m + "analysis"},       // upward
		{m + "decode", m + "train"},         // same floor, other directory
		{m + "model", m + "subword"},        // same floor, other directory
		{m + "newpkg", m + "engine"},        // a package on no floor
		{m + "train", m + "newpkg/sub"},     // an import on no floor
		{m + "internal/textio", m + "data"}, // a helper importing upward
	}
	for _, c := range refused {
		if err := Check(c[0], c[1]); err == nil {
			t.Errorf("%s → %s allowed", c[0], c[1])
		}
	}
}

// TestModuleRespectsFloors lists every package of the module with its
// imports (go list) and checks each import against the floors.
func TestModuleRespectsFloors(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	out, err := exec.Command(goTool, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", Module+"/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	packages := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		packages++
		if _, ok := Of(fields[0]); !ok {
			t.Errorf("%s stands on no floor: add it to Floors and docs/architecture.md", fields[0])
		}
		for _, imp := range fields[1:] {
			if err := Check(fields[0], imp); err != nil {
				t.Error(err)
			}
		}
	}
	if packages < 20 {
		t.Fatalf("go list found only %d packages of %s", packages, Module)
	}
}
