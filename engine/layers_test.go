package engine

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestInternalLayersImportNoEngine: the packages below the engine
// (kernels, CPU detection, the file format) import nothing from engine itself, so
// that they stay usable, and testable, without the graph above them.
func TestInternalLayersImportNoEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	const engine = "github.com/strata-nmt/strata/engine"
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}}", "./internal/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps ./internal/...: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	for _, want := range []string{"cpu", "kernels", "format"} {
		if !slices.Contains(deps, engine+"/internal/"+want) {
			t.Errorf("go list -deps ./internal/... lists no %s/internal/%s", engine, want)
		}
	}
	for _, p := range deps {
		if p == engine || (strings.HasPrefix(p, engine+"/") && !strings.HasPrefix(p, engine+"/internal/")) {
			t.Errorf("a package under engine/internal depends on %s", p)
		}
	}
}

// TestPuregoBuildsWithoutAssembly: with the purego tag no package of the
// engine assembles anything, as with the standard library's tag.
func TestPuregoBuildsWithoutAssembly(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(goTool, "list", "-tags", "purego", "-f", "{{.ImportPath}}: {{.SFiles}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -tags purego ./...: %v\n%s", err, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, files, _ := strings.Cut(line, ": ")
		for _, f := range strings.Fields(strings.Trim(files, "[]")) {
			t.Errorf("purego build of %s assembles %s", pkg, f)
		}
	}
}
