package msc

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/strata-nmt/strata/internal/sharedtest"
)

// smoke runs run.sh in smoke mode with WORK and RESULTS (and args, a
// subcommand), returning its log.
func smoke(t *testing.T, root, bin, shared, work, results string, args ...string) string {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"experiments/msc/run.sh"}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "SMOKE=1", "WORK="+work, "RESULTS="+results, "STRATA="+bin, "SHARED="+shared,
		"SYSTEMS=base6 msc6 msc36 dlcl36", "PARALLEL=2")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh: %v\n%s", err, out)
	}
	return string(out)
}

// The recipe end to end on a slice, two systems side by side where it can:
// every system trained to B, scored and
// archived; Figure 3 ranked by base6's scheduled checkpoints and redrawn
// from the archived ranking; Figure 5; the tables with the claims'
// verdicts; and a fresh work directory restored from the archive without
// training anything again.
func TestSmokeRecipeArchivesFiguresAndTables(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the recipe end to end (-short)")
	}
	shared := sharedtest.Dir(t, "data/l10n/train/en-de.tsv.gz")
	for _, tool := range []string{"bash", "zcat", "awk", "xz", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	// Reading the scripts makes go test's cache depend on them.
	for _, f := range []string{"run.sh", "lib.sh"} {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	root, _ := filepath.Abs("../..")
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "strata")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "strata")).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	results := filepath.Join(tmp, "results")
	start := time.Now()
	out := smoke(t, root, bin, shared, filepath.Join(tmp, "work"), results)
	t.Logf("smoke run: %s", time.Since(start).Round(time.Second))
	// PARALLEL=2: base6 alone, then msc6 beside msc36 in two lanes, dlcl36 on
	// whichever lane is free first
	if m6, m36, e6 := strings.Index(out, "] train msc6:"), strings.Index(out, "] train msc36:"), strings.Index(out, "] evaluate msc6:"); m6 < 0 || m36 < 0 || e6 < m36 {
		t.Errorf("msc6 and msc36 did not train side by side (train msc6 at %d, msc36 at %d, evaluate msc6 at %d):\n%s", m6, m36, e6, out)
	}

	for _, s := range []string{"base6", "msc6", "msc36", "dlcl36"} {
		for _, f := range []string{".archived", "test.de", s + ".json", "metrics.jsonl.gz", "train.log.gz"} {
			if _, err := os.Stat(filepath.Join(results, s, f)); err != nil {
				t.Errorf("%s is not archived: %v", s, err)
			}
		}
	}
	checkRanking(t, filepath.Join(results, "figures", "ranking"))
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(results, p))
		if err != nil {
			t.Error(err)
		}
		return string(b)
	}
	if fig3 := read("figures/difficulty.md"); !strings.Contains(fig3, "| Challenging |") || !strings.Contains(fig3, "dlcl36 BLEU") {
		t.Errorf("Figure 3 table:\n%s", fig3)
	}
	if b := read("figures/curves.png"); !strings.HasPrefix(b, "\x89PNG") {
		t.Errorf("figures/curves.png is not a PNG")
	}
	for _, f := range []string{".done", "shared-msc36.png", "shared-dlcl36.png", "shared-profile.png", "shared-profile.tsv"} {
		if _, err := os.Stat(filepath.Join(results, "figures", "fig5", f)); err != nil {
			t.Errorf("Figure 5: %v", err)
		}
	}
	tables := read("tables.md")
	for _, want := range []string{"| `msc36` | 29.04 |", "| T2-a | `msc6` − `base6` | +0.26 |", "| T3-a | `msc36` − `dlcl36` |", "| chrF Δ (95% CI), p |", "- T2-c: ", "(at one seed)", "- F3 (at one seed; Figure 3): gain in Challenging minus gain in Simple", "over the top 6, first 40 updates): msc36 "} {
		if !strings.Contains(tables, want) {
			t.Errorf("tables.md lacks %q:\n%s", want, tables)
		}
	}

	// A fresh work directory: everything comes back from the archive.
	out = smoke(t, root, bin, shared, filepath.Join(tmp, "work2"), results)
	if strings.Contains(out, "] train ") || strings.Contains(out, "] evaluate ") {
		t.Errorf("restored systems were trained or decoded again:\n%s", out)
	}
	if again := read("tables.md"); again != tables {
		t.Errorf("tables from the restored archive:\n%s\nfirst run:\n%s", again, tables)
	}

	// Figures left half drawn in a work directory are replaced by the
	// archive's, not joined by a copy nested inside them.
	work2 := filepath.Join(tmp, "work2")
	for _, p := range []string{"fig5/.done", "difficulty/difficulty.json"} {
		if err := os.Remove(filepath.Join(work2, p)); err != nil {
			t.Fatal(err)
		}
	}
	smoke(t, root, bin, shared, work2, results, "tables")
	for _, p := range []string{"fig5/fig5", "difficulty/difficulty"} {
		if _, err := os.Stat(filepath.Join(work2, p)); err == nil {
			t.Errorf("the archive was copied into %s", filepath.Join(work2, p))
		}
	}
	if _, err := os.Stat(filepath.Join(work2, "fig5", ".done")); err != nil {
		t.Errorf("Figure 5 not restored: %v", err)
	}
	if again := read("tables.md"); again != tables {
		t.Errorf("tables after restoring half-drawn figures:\n%s\nfirst run:\n%s", again, tables)
	}

	// `run.sh tables` alone (between pieces, while systems still train)
	// draws the figures the tables quote.
	for _, p := range []string{"figures/difficulty.md", "figures/difficulty", "figures/fig5", "tables.md"} {
		if err := os.RemoveAll(filepath.Join(results, p)); err != nil {
			t.Fatal(err)
		}
	}
	smoke(t, root, bin, shared, filepath.Join(tmp, "work3"), results, "tables")
	if again := read("tables.md"); again != tables {
		t.Errorf("run.sh tables:\n%s\nthe whole run's:\n%s", again, tables)
	}
}

// checkRanking: Figure 3's ranking came from base6's checkpoints on the
// save schedule (20 updates apart in smoke mode), as many as k says.
func checkRanking(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "difficulty.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct{ Checkpoints []string }
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	k, _ := os.ReadFile(filepath.Join(dir, "k"))
	if n, _ := strconv.Atoi(strings.TrimSpace(string(k))); n == 0 || n != len(rep.Checkpoints) {
		t.Errorf("ranking: k %q, %d checkpoints", k, len(rep.Checkpoints))
	}
	num := regexp.MustCompile(`checkpoint_(\d+)\.bin$`)
	for _, c := range rep.Checkpoints {
		m := num.FindStringSubmatch(c)
		if m == nil {
			t.Errorf("ranking checkpoint %s is not numbered", c)
			continue
		}
		if u, _ := strconv.Atoi(m[1]); u%20 != 0 {
			t.Errorf("ranking checkpoint %s is off the save schedule", c)
		}
	}
}
