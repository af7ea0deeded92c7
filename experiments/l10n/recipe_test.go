// Package l10n holds the test of the placeholder fine-tuning recipe
// (finetune.sh): its smoke mode trains a tiny base model, fine-tunes it on
// a small placeholder set and writes the report.
package l10n

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strata-nmt/strata/catalog/placeholder"
	"github.com/strata-nmt/strata/internal/sharedtest"
)

// placeholderCorpus writes a small placeholder set in the layout of
// `strata corpus l10n` (DIR/placeholders): masked training and dev pairs,
// unmasked test strings.
func placeholderCorpus(t *testing.T, dir string) {
	t.Helper()
	templates := [][2]string{
		{"Copy %s to the folder number %d", "%s in den Ordner Nummer %d kopieren"},
		{"Could not open <b>%s</b> in window %d", "<b>%s</b> konnte in Fenster %d nicht geöffnet werden"},
		{"Delete {name} from list %d", "{name} aus Liste %d löschen"},
	}
	pair := func(i int) (string, string) {
		tp := templates[i%len(templates)]
		w := fmt.Sprintf(" (item %d)", i)
		return tp[0] + w, tp[1] + fmt.Sprintf(" (Eintrag %d)", i)
	}
	masked := func(from, to int) []string {
		var out []string
		for i := from; i < to; i++ {
			en, de := pair(i)
			m, mDe, err := placeholder.MaskPair(en, de, placeholder.Options{})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, m.Text+"\t"+mDe)
		}
		return out
	}
	write := func(rel string, lines []string) {
		p := filepath.Join(dir, "placeholders", rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(lines, "\n") + "\n"
		if strings.HasSuffix(p, ".gz") {
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			z := gzip.NewWriter(f)
			z.Write([]byte(text))
			z.Close()
			f.Close()
			return
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("train/en-de.tsv.gz", masked(0, 60))
	write("dev/en-de.tsv", masked(60, 70))
	var en, de []string
	for i := 70; i < 85; i++ {
		e, d := pair(i)
		en, de = append(en, e), append(de, d)
	}
	write("test/en-de.en", en)
	write("test/en-de.de", de)
}

func TestSmokeFinetuneRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the recipe end to end (-short)")
	}
	l10n := filepath.Join(sharedtest.Dir(t, "data/l10n/train/en-de.tsv.gz", "data/l10n/dev/dev.de", "data/l10n/test/test.de"), "data/l10n")
	for _, tool := range []string{"sh", "zcat", "awk", "sort", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	// Reading the script here makes go test's cache depend on it.
	if b, err := os.ReadFile("finetune.sh"); err != nil || !strings.Contains(string(b), "SMOKE") {
		t.Fatalf("finetune.sh: %v", err)
	}
	root, _ := filepath.Abs("../..")
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "strata")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "strata")).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	corpus := filepath.Join(tmp, "corpus")
	placeholderCorpus(t, corpus)
	work := filepath.Join(tmp, "work")
	run := func(env ...string) string {
		cmd := exec.Command("sh", "experiments/l10n/finetune.sh")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), append([]string{"SMOKE=1", "WORK=" + work, "STRATA=" + bin, "CORPUS=" + corpus,
			"L10N=" + l10n, "THREADS=1", "BASE=" + filepath.Join(tmp, "none")}, env...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("finetune.sh %v: %v\n%s", env, err, out)
		}
		return string(out)
	}
	// A time limit stops the fine-tune before it finishes: nothing is
	// evaluated, and a rerun goes on.
	if out := run("STOP_TIME=1ns"); !strings.Contains(out, "stopped before convergence") || exists(work, "report.json") {
		t.Fatalf("a time-limited run did not stop at the fine-tune:\n%s", out)
	}
	start := time.Now()
	out := run()
	t.Logf("smoke run: %s\n%s", time.Since(start).Round(time.Second), out)
	b, err := os.ReadFile(filepath.Join(work, "report.json"))
	if err != nil {
		t.Fatalf("no report: %v\n%s", err, out)
	}
	var r struct {
		Base, Finetune  string
		PlaceholderTest struct {
			Lines          int
			Base, Finetune struct {
				Kept    *int
				KeptPct *float64 `json:"kept_pct"`
				BLEU    *float64
			}
		} `json:"placeholder_test"`
		L10nTest struct {
			BaseBLEU     *float64 `json:"base_bleu"`
			FinetuneBLEU *float64 `json:"finetune_bleu"`
			PValue       *float64 `json:"p_value"`
		} `json:"l10n_test"`
		Decision string
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("report.json: %v\n%s", err, b)
	}
	pt, lt := r.PlaceholderTest, r.L10nTest
	if pt.Lines != 15 || pt.Base.Kept == nil || pt.Finetune.KeptPct == nil || pt.Base.BLEU == nil || pt.Finetune.BLEU == nil {
		t.Errorf("placeholder test fields missing: %s", b)
	}
	if lt.BaseBLEU == nil || lt.FinetuneBLEU == nil || lt.PValue == nil || *lt.PValue < 0 || *lt.PValue > 1 {
		t.Errorf("l10n test fields missing: %s", b)
	}
	if !strings.HasPrefix(r.Decision, "ship the fine-tune") && !strings.HasPrefix(r.Decision, "keep the base model") {
		t.Errorf("decision %q", r.Decision)
	}
	if !strings.Contains(out, "Decision: ") {
		t.Errorf("the decision is not printed:\n%s", out)
	}
	// Everything done: a rerun trains and translates nothing.
	if out := run(); strings.Contains(out, "] train:") || strings.Contains(out, "] translate:") {
		t.Errorf("rerun repeated a stage:\n%s", out)
	}
}

func exists(dir, rel string) bool {
	_, err := os.Stat(filepath.Join(dir, rel))
	return err == nil
}
