package zeroshot

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// maxArchivedSystem bounds what one archived system may add to the
// repository (results.sh says what an archive leaves out to stay within it).
const maxArchivedSystem = 1_500_000

// TestArchivedSystemsAreSmall checks every archived system of every recipe
// (experiments/*/results/SYSTEM).
func TestArchivedSystemsAreSmall(t *testing.T) {
	systems, err := filepath.Glob(filepath.Join("..", "*", "results", "*"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, dir := range systems {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		size, err := treeSize(dir)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		if size > maxArchivedSystem {
			t.Errorf("%s holds %d bytes, more than %d: leave out what the summaries do not read (results.sh)", dir, size, maxArchivedSystem)
		}
	}
	if checked == 0 {
		t.Skip("no archived system under experiments/*/results")
	}
}

func TestTreeSize(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "x"), make([]byte, 10), 0o644)
	os.WriteFile(filepath.Join(dir, "a", "b", "y"), make([]byte, 32), 0o644)
	if n, err := treeSize(dir); err != nil || n != 42 {
		t.Errorf("treeSize = %d, %v; want 42", n, err)
	}
}

// treeSize is the total size of the regular files under dir.
func treeSize(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		total += fi.Size()
		return nil
	})
	return total, err
}
