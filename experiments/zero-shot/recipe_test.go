// Package zeroshot holds the test of the zero-shot recipe (run.sh): its
// smoke mode runs every stage end to end on the shared data.
package zeroshot

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/strata-nmt/strata/analysis"
	"github.com/strata-nmt/strata/internal/sharedtest"
)

// recipe runs run.sh with the smoke settings and env, returning its log.
func recipe(t *testing.T, root, bin, work, shared string, env ...string) string {
	t.Helper()
	out, err := recipeErr(root, bin, work, shared, env...)
	if err != nil {
		t.Fatalf("run.sh %v: %v\n%s", env, err, out)
	}
	return out
}

func recipeErr(root, bin, work, shared string, env ...string) (string, error) {
	return recipeArgs(root, bin, work, shared, nil, env...)
}

// recipeArgs runs run.sh ARGS (e.g. "interim") with the smoke settings.
func recipeArgs(root, bin, work, shared string, args []string, env ...string) (string, error) {
	cmd := exec.Command("bash", append([]string{"experiments/zero-shot/run.sh"}, args...)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), append([]string{"SMOKE=1", "WORK=" + work, "STRATA=" + bin, "SHARED=" + shared, "THREADS=1"}, env...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestSmokeRecipeRunsEveryStageAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the recipe end to end (-short)")
	}
	shared := sharedtest.Dir(t, "data/l10n/train", "data/l10n/test", "data/flores200-devtest", "data/tatoeba", "models/lid.176.ftz")
	for _, tool := range []string{"bash", "zcat", "awk", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found", tool)
		}
	}
	// Reading the script here makes go test's cache depend on it (the
	// bash that runs it is not tracked).
	if b, err := os.ReadFile("run.sh"); err != nil || !strings.Contains(string(b), "SMOKE") {
		t.Fatalf("run.sh: %v", err)
	}
	root, _ := filepath.Abs("../..")
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "strata")
	if out, err := exec.Command("go", "build", "-o", bin, filepath.Join(root, "cmd", "strata")).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := filepath.Join(tmp, "work")

	// A failing training stops the script with an error and its log.
	if out, err := recipeErr(root, bin, work, shared, "SET=no_such_field=1"); err == nil || !strings.Contains(out, "strata train failed") {
		t.Fatalf("a failing training: error %v\n%s", err, out)
	}
	// A time limit stops the script at the first training: nothing is
	// marked trained, nothing evaluated, and the script says how to go on.
	out := recipe(t, root, bin, work, shared, "STOP_TIME=1ns")
	if !strings.Contains(out, "train pre-senc: STOP_TIME=1ns has passed; rerun the same command") || exists(work, "runs/pre-senc/.done") || exists(work, "eval") {
		t.Fatalf("time-limited run did not stop at the first system:\n%s", out)
	}

	start := time.Now()
	out = recipe(t, root, bin, work, shared)
	t.Logf("smoke run: %s", time.Since(start).Round(time.Second))
	systems := []string{"pre-senc", "post-senc", "pre-tenc", "post-tenc", "pre-senc-nores", "post-senc-nores",
		"pre-tenc-nores", "post-tenc-nores", "swap-senc", "swap-senc-nores",
		"pre-senc-s2", "post-senc-s2", "pre-senc-s3", "post-senc-s3"}
	// Table 4: one -simple system per norm, whichever rows were best.
	simple, _ := filepath.Glob(filepath.Join(work, "runs", "*-simple"))
	if len(simple) != 2 {
		t.Errorf("Table 4 systems %v, want one PreNorm and one PostNorm", simple)
	}
	for _, s := range simple {
		systems = append(systems, filepath.Base(s))
	}
	for _, s := range systems {
		if !exists(work, "runs/"+s+"/.done") {
			t.Errorf("%s was not trained", s)
		}
		for _, set := range []string{"l10n", "tatoeba", "flores"} {
			if !exists(work, "eval/"+s+"/"+set+"/matrix.json") {
				t.Errorf("%s was not evaluated on %s", s, set)
			}
		}
	}
	// Each seed is evaluated as soon as its two systems are trained.
	if e, tr := strings.Index(out, "eval-matrix post-senc-s2 on l10n"), strings.Index(out, "train pre-senc-s3 "); e < 0 || tr < 0 || e > tr {
		t.Errorf("seed 2 evaluated at %d of the log, seed 3 trained from %d: want seed 2 evaluated first", e, tr)
	}
	checkTable4ChosenOnDev(t, work, simple)
	tat, err := analysis.ReadMatrix(filepath.Join(work, "eval/post-senc/tatoeba/matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, d := range tat.Directions {
		dirs = append(dirs, d.Part+":"+d.String())
	}
	if got := strings.Join(dirs, " "); got != "ita-nld:it-nl ita-nld:nl-it ita-ron:it-ro ita-ron:ro-it nld-ron:nl-ro nld-ron:ro-nl" {
		t.Errorf("Tatoeba directions %s", got)
	}
	// Pivoting only with the paper's system #4.
	if p, _ := analysis.ReadMatrix(filepath.Join(work, "eval/post-tenc/l10n/matrix.json")); p == nil || p.PivotZeroShot == nil {
		t.Error("post-tenc (#4) has no pivot results")
	}
	if p, _ := analysis.ReadMatrix(filepath.Join(work, "eval/pre-senc/l10n/matrix.json")); p == nil || p.PivotZeroShot != nil {
		t.Error("pre-senc pivoted; only #4 pivots")
	}
	sig, _ := os.ReadFile(filepath.Join(work, "summary/significance-l10n.md"))
	for _, want := range []string{"post-senc against pre-senc", "post-tenc-nores against pre-tenc-nores", "swap-senc against pre-senc",
		"Average over the 6 zero-shot directions", "; off-target "} {
		if !strings.Contains(string(sig), want) {
			t.Errorf("significance-l10n.md lacks %q", want)
		}
	}
	// one-setting contrasts: the tag, the residual, LayerNorm's parameters
	eff, _ := os.ReadFile(filepath.Join(work, "summary/effects-l10n.md"))
	for _, want := range []string{"## T-ENC: pre-tenc against pre-senc", "## T-ENC: post-tenc-nores against post-senc-nores",
		"## w/o-Res.: post-tenc-nores against post-tenc", "## w/o-Res.: swap-senc-nores against swap-senc",
		"## LayerNorm-simple: ", "Average over the 6 zero-shot directions"} {
		if !strings.Contains(string(eff), want) {
			t.Errorf("effects-l10n.md lacks %q:\n%s", want, eff)
		}
	}
	if piv, _ := os.ReadFile(filepath.Join(work, "summary/pivot-tatoeba.md")); !strings.Contains(string(piv), "### post-tenc against post-tenc via en") {
		t.Errorf("pivot-tatoeba.md does not test #4 against its pivoting:\n%s", piv)
	}
	// the paper's IWSLT column beside ours, by system name (pivot: row 0)
	table, _ := os.ReadFile(filepath.Join(work, "summary/table-l10n.md"))
	for _, want := range []string{"| pre-senc | 4.9 (64.84%) | 31.5 |", "| post-tenc-nores | 17.8 (1.50%) | 30.6 |", "| pivot through en (post-tenc) | 20.0 | – |", "| swap-senc | – | – |"} {
		if !strings.Contains(string(table), want) {
			t.Errorf("table-l10n.md lacks %q:\n%s", want, table)
		}
	}
	for _, f := range []string{"llr/post-tenc/llr.json", "summary/llr-senc/llr_zero-shot.png", "summary/table-tatoeba.md", "summary/state.md"} {
		if !exists(work, f) {
			t.Errorf("no %s", f)
		}
	}

	// Everything done: a rerun trains and translates nothing.
	out = recipe(t, root, bin, work, shared)
	for _, stage := range []string{"] train ", "] eval-matrix ", "] llr ", "] data:"} {
		if strings.Contains(out, stage) {
			t.Errorf("rerun repeated a stage (%q):\n%s", stage, out)
		}
	}
	checkInterim(t, root, bin, work, shared)
	checkRestore(t, root, bin, work, shared, systems)
}

// checkRestore runs the recipe in a fresh WORK with the first one's
// RESULTS, as on a new machine whose runs/ was lost: every finished
// system comes back from the archive, nothing is trained or translated
// again, and the summaries are the same.
func checkRestore(t *testing.T, root, bin, work, shared string, systems []string) {
	t.Helper()
	results := filepath.Join(work, "results")
	for _, s := range systems {
		for _, f := range []string{".archived", "run/.done", "run/metrics.jsonl", "eval/l10n/hyp/it-nl.txt", "eval/flores/matrix.json"} {
			if !exists(results, s+"/"+f) && !exists(results, s+"/"+f+".gz") { // kept gzipped when large
				t.Errorf("results of %s lack %s", s, f)
			}
		}
	}
	if !exists(results, "post-tenc/llr/llr.json") && !exists(results, "post-tenc/llr/llr.json.gz") {
		t.Error("the archive of post-tenc lacks its LLR probes")
	}
	fresh := filepath.Join(filepath.Dir(work), "fresh")
	out := recipe(t, root, bin, fresh, shared, "RESULTS="+results)
	for _, stage := range []string{"] train ", "] eval-matrix ", "] llr "} {
		if strings.Contains(out, stage) {
			t.Errorf("a fresh WORK repeated a finished stage (%q):\n%s", stage, out)
		}
	}
	if !exists(results, "post-senc/eval/l10n/hyp/it-nl.txt.gz") {
		t.Error("the archive keeps hypotheses uncompressed")
	}
	if !strings.Contains(out, "restored post-senc's results") {
		t.Errorf("nothing restored:\n%s", out)
	}
	for _, f := range []string{"summary/table-l10n.md", "summary/significance-tatoeba.md", "summary/table-flores.md", "summary/effects-l10n.md", "summary/pivot-l10n.md"} {
		a, _ := os.ReadFile(filepath.Join(work, f))
		b, err := os.ReadFile(filepath.Join(fresh, f))
		if err != nil || len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s differs after the restore (%v):\n%s\n---\n%s", f, err, a, b)
		}
	}
}

// checkInterim runs `run.sh interim`: with every system trained it has
// nothing to do; given systems (ONLY) it snapshots and evaluates their
// best checkpoints once and compares the PostNorm one with its twin.
func checkInterim(t *testing.T, root, bin, work, shared string) {
	t.Helper()
	interim := func(env ...string) string {
		out, err := recipeArgs(root, bin, work, shared, []string{"interim"}, env...)
		if err != nil {
			t.Fatalf("run.sh interim %v: %v\n%s", env, err, out)
		}
		return out
	}
	if out := interim(); !strings.Contains(out, "no system has a best checkpoint") || exists(work, "interim/summary.md") {
		t.Errorf("interim with every system trained:\n%s", out)
	}
	out := interim("ONLY=pre-senc post-senc", "INTERIM_LINES=2")
	snaps, _ := filepath.Glob(filepath.Join(work, "interim", "*-senc-u*", "tatoeba-lines2", "matrix.json"))
	if len(snaps) != 2 || !strings.Contains(out, "interim: eval-matrix post-senc-u") {
		t.Fatalf("interim snapshots %v:\n%s", snaps, out)
	}
	sum, _ := os.ReadFile(filepath.Join(work, "interim", "summary.md"))
	if figs, _ := filepath.Glob(filepath.Join(work, "interim", "llr-pre-senc@*-post-senc@*", "llr_zero-shot.png")); len(figs) != 1 ||
		!strings.Contains(string(sum), "## LLR: pre-senc@") {
		t.Errorf("interim LLR figures %v", figs)
	}
	if dated, _ := filepath.Glob(filepath.Join(work, "interim", "summary-*Z.md")); len(dated) != 1 {
		t.Errorf("interim: dated copies %v, want one", dated)
	}
	if !regexp.MustCompile(`post-senc@\d+ against pre-senc@\d+`).Match(sum) || !strings.Contains(string(sum), "## tatoeba") ||
		!regexp.MustCompile(`\| post-senc@\d+ \| 12\.4 \(10\.61%\) \| 31\.5 \|`).Match(sum) {
		t.Errorf("interim summary.md:\n%s", sum)
	}
	if out := interim("ONLY=pre-senc post-senc", "INTERIM_LINES=2"); strings.Contains(out, "eval-matrix") {
		t.Errorf("interim rerun evaluated again:\n%s", out)
	}
}

func exists(dir, p string) bool {
	_, err := os.Stat(filepath.Join(dir, p))
	return err == nil
}

// checkTable4ChosenOnDev: each norm's Table 4 row is the system of rows
// #1-#8 with the highest zero-shot BLEU on the l10n dev set, which every
// one of them was evaluated on (without pivoting); the test sets play no
// part in the choice.
func checkTable4ChosenOnDev(t *testing.T, work string, simple []string) {
	t.Helper()
	top := map[string]string{}
	topBLEU := map[string]float64{}
	for _, s := range []string{"pre-senc", "post-senc", "pre-tenc", "post-tenc", "pre-senc-nores", "post-senc-nores", "pre-tenc-nores", "post-tenc-nores"} {
		m, err := analysis.ReadMatrix(filepath.Join(work, "eval", s, "dev", analysis.MatrixJSON))
		if err != nil {
			t.Errorf("%s: no l10n dev evaluation: %v", s, err)
			continue
		}
		if m.PivotZeroShot != nil {
			t.Errorf("%s pivoted on dev", s)
		}
		norm, _, _ := strings.Cut(s, "-")
		if b, ok := topBLEU[norm]; !ok || m.ZeroShot.BLEU > b {
			top[norm], topBLEU[norm] = s, m.ZeroShot.BLEU
		}
	}
	want := []string{top["pre"] + "-simple", top["post"] + "-simple"}
	var got []string
	for _, s := range simple {
		got = append(got, filepath.Base(s))
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Table 4 rows %v, want the best on dev %v", got, want)
	}
}
