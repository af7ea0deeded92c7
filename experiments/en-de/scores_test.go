// Package ende holds the checks of the converged l10n en→de run's
// archived outputs (results/): every figure docs/results.md, the README
// and the model card give for them recomputes from them.
package ende

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/experiments/internal/archivetest"
	"github.com/strata-nmt/strata/internal/sharedtest"
)

// An archived output, its reference under the shared data, and the row of
// docs/results.md's test table that reports it (test set, model).
var testOutputs = []struct {
	hyp, ref, set, model string
}{
	{"l10n.de", "l10n/test/test.de", "l10n test", "converged, int8"},
	{"l10n.f32.de", "l10n/test/test.de", "l10n test", "converged, float32"},
	{"l10n.shipped-int8.de", "l10n/test/test.de", "l10n test", "shipped (fine-tuned), int8"},
	{"l10n.old-int8.de", "l10n/test/test.de", "l10n test", "previous (6,090 updates), int8"},
	{"flores.de", "flores200-devtest/deu_Latn.devtest", "FLORES-200 devtest", "converged, int8"},
	{"flores.shipped-int8.de", "flores200-devtest/deu_Latn.devtest", "FLORES-200 devtest", "shipped (fine-tuned), int8"},
}

// TestReportedScoresReproduce: each archived test output's BLEU, chrF2
// and TER (SacreBLEU's defaults, two decimals) are in its row of
// docs/results.md; the shipped model's are in the README's table and the
// model card's; the chosen average's are in l10n.txt and flores.txt.
func TestReportedScoresReproduce(t *testing.T) {
	shared := sharedtest.Dir(t, "data/l10n/test/test.de", "data/flores200-devtest/deu_Latn.devtest")
	docs := readText(t, "../../docs/results.md")
	readme := readText(t, "../../README.md")
	card := readText(t, "../../models/l10n-en-de/README.md")
	for _, o := range testOutputs {
		t.Run(o.hyp, func(t *testing.T) {
			bleu, chrf, ter := archivetest.Scores(t, filepath.Join("results/hyp", o.hyp), filepath.Join(shared, "data", o.ref))
			row := tableRow(docs, o.set, o.model)
			if row == "" {
				t.Fatalf("docs/results.md has no row for %s, %s", o.set, o.model)
			}
			contains(t, "docs/results.md's row "+o.set+", "+o.model, row, bleu, chrf, ter)
			switch o.hyp {
			case "l10n.shipped-int8.de":
				contains(t, "the README's table", lineWith(readme, "| l10n test, in domain"), bleu, chrf)
				contains(t, "the model card's table", lineWith(card, "| l10n test (in domain"), bleu, chrf, ter)
			case "flores.shipped-int8.de":
				contains(t, "the README's table", lineWith(readme, "| FLORES-200 devtest, out of domain"), bleu, chrf)
				contains(t, "the model card's table", lineWith(card, "| FLORES-200 devtest eng→deu"), bleu, chrf, ter)
			case "l10n.de":
				contains(t, "l10n.txt", readText(t, "results/l10n.txt"), bleu, chrf, ter)
				contains(t, "the model card's table", lineWith(card, "| l10n test (in domain"), bleu+" / "+chrf+" / "+ter)
			case "flores.de":
				contains(t, "flores.txt", readText(t, "results/flores.txt"), bleu, chrf, ter)
				contains(t, "the model card's table", lineWith(card, "| FLORES-200 devtest eng→deu"), bleu+" / "+chrf+" / "+ter)
			}
		})
	}
}

// TestChoiceReproduces: the dev BLEU of the three candidates recomputes
// from their outputs to what choice.txt records and docs/results.md
// reports.
func TestChoiceReproduces(t *testing.T) {
	shared := sharedtest.Dir(t, "data/l10n/dev/dev.de")
	choice := readText(t, "results/choice.txt")
	docs := readText(t, "../../docs/results.md")
	for _, c := range []string{"best", "last", "avg"} {
		bleu, _, _ := archivetest.Scores(t, filepath.Join("results/hyp", "dev."+c+".de"), filepath.Join(shared, "data/l10n/dev/dev.de"))
		var recorded float64
		if _, err := fmt.Sscanf(after(choice, c+" "), "%g", &recorded); err != nil {
			t.Fatalf("choice.txt: no %s score: %v", c, err)
		}
		if got := fmt.Sprintf("%.2f", recorded); got != bleu {
			t.Errorf("dev.%s.de: BLEU %s recomputed, %s in choice.txt", c, bleu, got)
		}
		contains(t, "docs/results.md's candidates", paragraph(docs, "Candidates ("), bleu)
	}
}

// tableRow is the row of a Markdown table whose first cell is set (or
// empty, continuing the row above's set) and whose second is model.
func tableRow(doc, set, model string) string {
	current := ""
	for _, line := range strings.Split(doc, "\n") {
		cells := strings.Split(line, "|")
		if !strings.HasPrefix(line, "|") || len(cells) < 4 {
			continue
		}
		if first := strings.TrimSpace(cells[1]); first != "" {
			current = first
		}
		if current == set && strings.TrimSpace(cells[2]) == model {
			return line
		}
	}
	return ""
}

func contains(t *testing.T, where, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %s: %s", where, w, text)
		}
	}
}

func lineWith(doc, prefix string) string {
	for _, line := range strings.Split(doc, "\n") {
		if strings.Contains(line, prefix) {
			return line
		}
	}
	return ""
}

// paragraph is the text from the first occurrence of start to the next
// blank line.
func paragraph(doc, start string) string {
	i := strings.Index(doc, start)
	if i < 0 {
		return ""
	}
	p, _, _ := strings.Cut(doc[i:], "\n\n")
	return p
}

func after(s, key string) string {
	_, rest, _ := strings.Cut(s, key)
	return rest
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
