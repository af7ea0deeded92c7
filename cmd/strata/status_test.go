package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/analysis"
	"github.com/strata-nmt/strata/internal/sharedtest"
	"github.com/strata-nmt/strata/rundir"
)

// archivedSystem is a system of the zero-shot study kept in the
// repository: gzipped metrics, train.log and hypotheses, no checkpoints.
func archivedSystem(t *testing.T, name string) string {
	dir := filepath.Join("..", "..", "experiments", "zero-shot", "results", name)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no archived system at %s", dir)
	}
	return dir
}

func TestStatusOfArchivedRun(t *testing.T) {
	dir := filepath.Join(archivedSystem(t, "post-senc"), "run")
	out := run(t, "status", "post-senc="+dir)
	if !strings.Contains(out, "| post-senc | finished (reached max_update 30000) | 30000 | 65 | nll 2.8526 | 30000 | – |") {
		t.Errorf("strata status:\n%s", out)
	}
	var sts []rundir.Status
	if err := json.Unmarshal([]byte(run(t, "status", "--json", dir, filepath.Join(dir, "absent"))), &sts); err != nil {
		t.Fatal(err)
	}
	if len(sts) != 2 || sts[0].State != rundir.StateFinished || sts[0].Reason != rundir.StopMaxUpdate || sts[0].Name != dir ||
		sts[1].State != rundir.StateNotStarted {
		t.Errorf("strata status --json: %+v", sts)
	}
}

// eval-matrix table --json gives the Markdown table's numbers; with
// --baseline it reads the archive's gzipped hypotheses for the paired
// bootstrap.
func TestEvalMatrixTableJSONOnArchive(t *testing.T) {
	pre := filepath.Join(archivedSystem(t, "pre-senc"), "eval", "tatoeba", "matrix.json")
	post := filepath.Join(archivedSystem(t, "post-senc"), "eval", "tatoeba", "matrix.json")
	m, err := analysis.ReadMatrix(post)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range m.Directions {
		if _, err := os.Stat(d.Ref); d.Ref == "" || err != nil {
			t.Skipf("reference %s not here", d.Ref)
		}
	}
	var rows []analysis.SummarySystem
	out := run(t, "eval-matrix", "table", "--json", "--baseline", "pre", "--bootstrap-samples", "50", "pre="+pre, "post="+post)
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(rows) != 2 || rows[1].Name != "post" || math.Abs(rows[1].ZeroShot.BLEU-m.ZeroShot.BLEU) > 1e-9 ||
		rows[0].Significance != nil || rows[1].Significance == nil || len(rows[1].Significance.Tests) != len(m.Directions) {
		t.Errorf("eval-matrix table --json:\n%s", out)
	}
}

// With --lid-model, eval-matrix table identifies the references of an
// archived matrix written before they were recorded, and --per-direction
// prints them beside every direction's off-target rate.
func TestEvalMatrixTableReferenceLIDOnArchive(t *testing.T) {
	pre := filepath.Join(archivedSystem(t, "pre-senc"), "eval", "tatoeba", "matrix.json")
	lid := sharedtest.Path(t, "models/lid.176.ftz")
	m, err := analysis.ReadMatrix(pre)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range m.Directions {
		if _, err := os.Stat(d.Ref); d.Ref == "" || err != nil {
			t.Skipf("reference %s not here", d.Ref)
		}
	}
	out := run(t, "eval-matrix", "table", "--per-direction", "--lid-model", lid, "pre="+pre)
	for _, want := range []string{"| pre | 2.43 (24.63%) | 8.71% | 22.18% |", "| it-ro | zero-shot | 2.10 | 22.23 | 26.87% | 18.41% | 21.83% |",
		"| ita-ron | ro | 1005 | 18.41% |"} {
		if !strings.Contains(out, want) {
			t.Errorf("eval-matrix table --per-direction --lid-model lacks %q:\n%s", want, out)
		}
	}
	var rows []analysis.SummarySystem
	if err := json.Unmarshal([]byte(run(t, "eval-matrix", "table", "--json", "--lid-model", lid, "pre="+pre)), &rows); err != nil {
		t.Fatal(err)
	}
	if r := rows[0].ZeroShot.RefLID; r == nil || math.Abs(r.OffTarget-0.0871) > 1e-4 {
		t.Errorf("table --json reference LID %+v", r)
	}
}
