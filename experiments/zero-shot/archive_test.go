package zeroshot

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/internal/textio"
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

// decimalNumber matches what float32_digits (experiments/json.sh) rounds.
var decimalNumber = regexp.MustCompile(`[0-9]+\.[0-9]+([eE][-+]?[0-9]+)?`)

// significantDigits counts the significant digits of a decimal number as
// written ("0.001105592" has 7, "6.190123e-05" has 7).
func significantDigits(num string) int {
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		num = num[:i]
	}
	digits := strings.TrimLeft(strings.Replace(num, ".", "", 1), "0")
	return len(digits)
}

// TestArchivedMetricsKeepFloat32Digits checks the metrics of every system
// the two studies archived (zero-shot's run/metrics.jsonl.gz, MSC's
// metrics.jsonl.gz): numbers keep float32's 7 significant digits
// (float32_digits in experiments/json.sh), which keeps them within
// TestArchivedSystemsAreSmall's cap.
func TestArchivedMetricsKeepFloat32Digits(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../zero-shot/results/*/run/metrics.jsonl*", "../msc/results/*/metrics.jsonl*"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no archived metrics under experiments/{zero-shot,msc}/results")
	}
	for _, f := range files {
		checkFloat32Digits(t, f)
	}
}

// checkFloat32Digits fails when a metrics file (gzipped or not) writes a
// number with more digits than float32 holds.
func checkFloat32Digits(t *testing.T, path string) {
	t.Helper()
	data, err := textio.ReadFile(path)
	if err != nil {
		t.Error(err)
		return
	}
	for _, num := range decimalNumber.FindAllString(string(data), -1) {
		if significantDigits(num) > 7 {
			t.Errorf("%s writes %s: more digits than float32's 7 (float32_digits)", path, num)
			return
		}
	}
}

func TestSignificantDigits(t *testing.T) {
	for num, want := range map[string]int{"0.001105592": 7, "6.190123e-05": 7, "12.39112": 7, "5.59": 3, "0.4026270824013704": 16, "100.0": 4} {
		if got := significantDigits(num); got != want {
			t.Errorf("significantDigits(%s) = %d, want %d", num, got, want)
		}
	}
}
