package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// skips reports whether f skips the test it runs in.
func skips(t *testing.T, f func(t *testing.T)) bool {
	var skipped bool
	t.Run("probe", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		f(t)
	})
	return skipped
}

func TestDirFindsWhatIsThereAndSkipsOtherwise(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "models", "lid.176.ftz"), []byte("x"), 0o644)
	t.Setenv("SHARED", dir)
	var got string
	if skips(t, func(t *testing.T) { got = Path(t, "models/lid.176.ftz") }) {
		t.Fatal("a present file skipped the test")
	}
	if want := filepath.Join(dir, "models", "lid.176.ftz"); got != want {
		t.Errorf("Path = %s, want %s", got, want)
	}
	if !skips(t, func(t *testing.T) { Dir(t, "models/lid.176.ftz", "data/l10n") }) {
		t.Error("a missing path did not skip the test")
	}
}

// Without $SHARED the directory is the repository root's sibling.
func TestDirIsBesideTheRepository(t *testing.T) {
	t.Setenv("SHARED", "")
	got, err := locate()
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	if want := filepath.Join(filepath.Dir(root), "shared"); got != want {
		t.Errorf("locate = %s, want %s", got, want)
	}
	if got := Root(t); got != root {
		t.Errorf("Root = %s, want %s", got, root)
	}
}
