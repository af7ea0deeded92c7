// Package sharedtest finds the shared corpora and models (../shared next to
// the repository, see the README) for tests, and skips a test with a
// message naming what is missing where they are absent: the project never
// copies these files, so `go test ./...` must pass without them.
package sharedtest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of the shared directory when every path
// in need (relative to it) exists there, and skips t otherwise. The
// directory is $SHARED when set (as the recipes read it), else "shared"
// beside the repository root (the directory holding go.mod).
func Dir(t testing.TB, need ...string) string {
	t.Helper()
	dir, err := locate()
	if err != nil {
		t.Skipf("shared data not found (%v): skipping", err)
	}
	for _, p := range need {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Skipf("%s absent from the shared data at %s: skipping", p, dir)
		}
	}
	return dir
}

// Path returns the absolute path of one file or directory of the shared
// data (relative to it), skipping t where it is absent.
func Path(t testing.TB, rel string) string {
	t.Helper()
	return filepath.Join(Dir(t, rel), rel)
}

// Root returns the repository root (the directory holding go.mod above
// the test's package), failing t when there is none.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := root()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// locate returns $SHARED or the repository root's sibling "shared".
func locate() (string, error) {
	if d := os.Getenv("SHARED"); d != "" {
		return filepath.Abs(d)
	}
	dir, err := root()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(dir), "shared"), nil
}

// root walks up from the working directory to the one holding go.mod.
func root() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", wd)
		}
		dir = parent
	}
}
