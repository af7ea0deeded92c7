package doccheck

import (
	"os"
	"path/filepath"
	"testing"
)

// The phrases found in docs/, README.md and model cards when this check was
// written: each must be caught.
var knownWorkLog = []string{
	"state at the end of the nineteenth session",
	"the fifth session's trainings",
	"measured in this session",
	"the last session left it at update 6,000",
	"thirteenth sessions",
	"Quiet-machine figures, fourth run (issue 16, 2026-12-02)",
	"went from 1.44x (third run) to 1.94x",
	"### Third day of figures, and two ideas that did not pay",
	"meets its three goals for the second day running",
	"What changed in this round (each measured by the tables)",
	"the MSC training and another helper, so",
	"the lead's quiet run is the figure to quote",
	"other helpers' builds and tests",
	"beside two helper sessions",
	"6.4 s/update, other work alongside",
	"who worked alongside",
	"issue 18's trainings",
	"## MSC: deep models on l10n en→de (issue 7)",
	"## Zero-shot: PreNorm vs PostNorm (issues 8, 18)",
	"Issue 17 stays open",
	"of issue 19 §2 instead",
	"the server before issue 15 merged",
	"rows #3/#4 came from #18",
	"since this session, the FFN's first product in int8",
	"load average 8-13: the training at nice -10 and other helpers' jobs",
	"**The model shipped in the eighth session (average of updates 5,500",
	"int8 (7-bit activations, the default since the ninth session)",
	"**On the l10n en→de model (issue 19), update 1,000**",
	"the issue #98 sentence BLEU values",
	"`FuzzReadLines` (before issue 14 merged; now `FuzzReadTSV`)",
	"in four sessions resumed from the full checkpoint",
	"`SENTENCES=500 ROUNDS=2 sh bench/decode/run.sh`, 2026-12-02 03:20, AMD EPYC",
	"### History",
}

// Product text, and other projects' issues, must pass.
var notWorkLog = []string{
	"LibreTranslate's issue 806 asks for it",
	"as in fairseq issue 1234",
	"(SacreBLEU #141). log(0) is −999999",
	"a Zen 3 core issues 16 float32 FLOPs a cycle",
	"rows #0 to #8 of the paper's Table 2; #4 pivots",
	"a second run skipped every stage; a third run must repeat no stage",
	"`SENTENCES=500 ROUNDS=3 sh bench/decode/run.sh`, a third round",
	"discards that round's best shift",
	"the first run downloads the model",
	"round-trip time",
	"a session cookie",
	"Tatoeba Challenge test sets v2021-08-07 (public)",
	"## Training history of a run",
}

func TestFindsWorkLogPhrases(t *testing.T) {
	for _, s := range knownWorkLog {
		if len(Find(s)) == 0 {
			t.Errorf("not caught: %q", s)
		}
	}
	for _, s := range notWorkLog {
		if f := Find(s); len(f) != 0 {
			t.Errorf("product text caught: %q (%+v)", s, f)
		}
	}
	if f := Find("intro\n\nmeasured in the fourth session\n"); len(f) != 1 || f[0].Line != 3 {
		t.Errorf("line numbers: %+v", f)
	}
}

// The user documentation (docs/, README.md, models/*/README.md) holds no
// work-log phrase. Set STRATA_DOCCHECK=1 to run it.
// TestDocsHaveNoWorkLog checks the user documentation: docs/, the README
// and the model cards.
func TestDocsHaveNoWorkLog(t *testing.T) {
	root := filepath.Join("..", "..")
	files, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	cards, _ := filepath.Glob(filepath.Join(root, "models", "*", "README.md"))
	files = append(append(files, filepath.Join(root, "README.md")), cards...)
	if len(files) < 3 {
		t.Fatalf("found only %d documentation files under %s: is the test run from internal/doccheck?", len(files), root)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		for _, f := range Find(string(b)) {
			t.Errorf("%s:%d: %s: %q", rel, f.Line, f.Rule, f.Phrase)
		}
	}
}
