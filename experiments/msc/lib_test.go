// Package msc holds the tests of the MSC study's recipe (run.sh, lib.sh)
// that need no training: the tables and the decision rule.
package msc

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lib runs a bash snippet with lib.sh sourced and WORK set.
func lib(t *testing.T, work, script string) string {
	t.Helper()
	root, _ := filepath.Abs("../..")
	cmd := exec.Command("bash", "-c", "set -euo pipefail; log() { :; }; . experiments/msc/lib.sh; "+script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "WORK="+work, "RESULTS="+filepath.Join(work, "results"), "VALID_EVERY=500",
		"SYSTEMS=base6 msc6 msc36 base6-s2 msc36-s2")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return string(out)
}

func TestVerdictFollowsTheDesignsRule(t *testing.T) {
	for in, want := range map[string]string{
		"paper":             "confirmed (at one seed)",
		"paper paper":       "confirmed (at 2 seeds)",
		"opposite opposite": "reversed (at 2 seeds)",
		"paper n.s.":        "not confirmed (at 2 seeds)",
		"paper opposite":    "not confirmed (at 2 seeds)",
		"opposite paper":    "not confirmed (at 2 seeds)",
		"n.s.":              "not confirmed (at one seed)",
	} {
		if got := strings.TrimSpace(lib(t, t.TempDir(), "verdict "+in)); got != want {
			t.Errorf("verdict %s = %q, want %q", in, got, want)
		}
	}
}

// paired writes a contrast's JSON as `strata eval --paired-bs --json` does
// (BLEU and chrF2 lines, keys in encoding/json's order); chrF's interval
// is -0.25 to +1.25 and its p 0.031 in every contrast.
func paired(t *testing.T, work, name, bleu, lower, upper, p, chrf string) {
	t.Helper()
	js := `{"difference":{"score":` + bleu + `,"mean":0,"ci":0,"lower":` + lower + `,"upper":` + upper + `},"name":"BLEU","p_value":` + p + `,"score":1}` + "\n" +
		`{"difference":{"score":` + chrf + `,"mean":0,"ci":0,"lower":-0.25,"upper":1.25},"name":"chrF2","p_value":0.031,"score":2}` + "\n"
	if err := os.WriteFile(filepath.Join(work, "scores", name+".json"), []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The tables put each scored system beside the paper's number, each
// contrast with its outcome, and each claim's verdict over its seeds.
func TestTablesReportSystemsContrastsAndVerdicts(t *testing.T) {
	work := t.TempDir()
	for _, d := range []string{"scores", "budget"} {
		os.MkdirAll(filepath.Join(work, d), 0o755)
	}
	os.WriteFile(filepath.Join(work, "budget", "B"), []byte("4000\n"), 0o644)
	score := `{"ci":1.786,"lower":24.81,"mean":26.548,"name":"BLEU","score":26.543,"upper":28.39}` + "\n" + `{"name":"chrF2","score":54.71}` + "\n" + `{"name":"TER","score":63.044}` + "\n"
	os.WriteFile(filepath.Join(work, "scores", "base6.json"), []byte(score), 0o644)
	paired(t, work, "msc6-vs-base6", "0.8", "0.2", "1.4", "0.01", "0.5")         // counts, the paper's direction
	paired(t, work, "msc36-vs-base6", "1.2", "0.5", "1.9", "0.002", "1.1")       // seed 1: counts
	paired(t, work, "msc36-s2-vs-base6-s2", "0.6", "-0.1", "1.3", "0.08", "0.4") // seed 2: p too large
	paired(t, work, "msc36-vs-msc6", "-1.1", "-1.8", "-0.4", "0.004", "-0.9")    // the other way
	if out := lib(t, work, "tables; cat \"$WORK/results/tables.md\""); strings.Contains(out, "Other contrasts") {
		t.Errorf("an empty table of other contrasts is printed:\n%s", out)
	}
	paired(t, work, "msc36-noctx-vs-msc36", "-0.9", "-1.5", "-0.3", "0.003", "-0.7") // Table 5, no claim
	out := lib(t, work, "tables; cat \"$WORK/results/tables.md\"")
	for _, want := range []string{
		"checkpoints at 3000, 3500 and 4000 updates",
		"| `base6` | 27.23 | 26.54 (24.8-28.3) | 54.71 | 63.04 |", // μ ± ci, as sacreBLEU prints it
		"| T2-a | `msc6` − `base6` | +0.26 | +0.80 (+0.20 to +1.40) | 0.010 | +0.50 (-0.25 to +1.25), 0.031 | counts, the paper's direction |",
		"| T2-b | `msc36-s2` − `base6-s2` | +1.81 | +0.60 (-0.10 to +1.30) | 0.080 | +0.40 (-0.25 to +1.25), 0.031 | does not count |",
		"- T2-a: confirmed (at one seed)",
		"- T2-b: not confirmed (at 2 seeds)",
		"- T2-c: reversed (at one seed)",
		"| `msc36-noctx` − `msc36` | -0.90 (-1.50 to -0.30) | 0.003 | -0.70 (-0.25 to +1.25), 0.031 | counts |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tables lack %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "T3-a") {
		t.Errorf("a claim without scored contrasts is listed:\n%s", out)
	}
	if _, others, _ := strings.Cut(out, "Other contrasts"); strings.Contains(others, "`msc6` − `base6`") {
		t.Errorf("a claim's contrast is listed among the others:\n%s", others)
	}
}

// A claimed system is refused to every other claimant until released; a
// claim left by a process that has ended (a stopped piece, a reboot) is
// cleared, a live one is kept, and so is a half-made one (no owner yet)
// for its first minute.
func TestClaimsKeepTwoLanesApart(t *testing.T) {
	work := t.TempDir()
	out := lib(t, work, `
		claim msc36 && echo "first: yes"
		( claim msc36 && echo "second: yes" || echo "second: no" )
		release msc36
		( claim msc36 && echo "after release: yes" || echo "after release: no" )
		clear_stale_claims
		claim msc36 && echo "stale cleared: yes"
		bash -c 'exit 0' & wait
		echo "$BASHPID $(boot_id)" >"$WORK/claims/msc36/owner"
		claim dlcl36 && echo "999999 $(boot_id)" >"$WORK/claims/dlcl36/owner"
		claim plain36 && echo "$BASHPID another-boot" >"$WORK/claims/plain36/owner"
		mkdir "$WORK/claims/.new.young" "$WORK/claims/.new.old" && touch -d '2 minutes ago' "$WORK/claims/.new.old"
		clear_stale_claims
		for s in msc36 dlcl36 plain36 .new.young .new.old; do [ -d "$WORK/claims/$s" ] && echo "$s kept" || echo "$s cleared"; done`)
	want := "first: yes\nsecond: no\nafter release: yes\nstale cleared: yes\nmsc36 kept\ndlcl36 cleared\nplain36 cleared\n.new.young kept\n.new.old cleared\n"
	if out != want {
		t.Errorf("claims:\n%s\nwant:\n%s", out, want)
	}
}

// slim_metrics drops the per-layer gradient norms after KEEP updates and
// keeps 7 significant digits of every number (float32's), rounded, leaving
// shorter numbers and integers as they are.
func TestSlimMetricsKeepsFigure5sNormsToFloat32Digits(t *testing.T) {
	in := `{"update":2,"lr":6.190123456e-05,"layer_grad_norms":{"a.layers.0":0.0011055915017510672},"layer_grad_norms_shared":{"a.layers.0":12.391121688773327},"loss":5.59}` + "\n" +
		`{"update":3,"nll":3.5191234567,"layer_grad_norms":{"a.layers.0":0.39},"layer_grad_norms_shared":{"a.layers.0":0.1},"tokens":40960}` + "\n"
	want := `{"update":2,"lr":6.190123e-05,"layer_grad_norms":{"a.layers.0":0.001105592},"layer_grad_norms_shared":{"a.layers.0":12.39112},"loss":5.59}` + "\n" +
		`{"update":3,"nll":3.519123,"tokens":40960}` + "\n"
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "m.jsonl"), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := lib(t, work, `slim_metrics 2 <"$WORK/m.jsonl"`); got != want {
		t.Errorf("slim_metrics 2:\n%s\nwant:\n%s", got, want)
	}
}
