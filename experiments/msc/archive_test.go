package msc

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/experiments/internal/archivetest"
	"github.com/strata-nmt/strata/internal/sharedtest"
)

// TestArchivedScoresReproduce: every system archived under results/
// scores, from its test hypotheses and the l10n test references with
// SacreBLEU's defaults, the BLEU, chrF2 and TER its NAME.json records,
// and docs/results.md reports those three in the system's row of Tables
// 2 and 3. An archive and the report that cites it cannot drift apart.
func TestArchivedScoresReproduce(t *testing.T) {
	refFile := filepath.Join(sharedtest.Dir(t, "data/l10n/test/test.de"), "data/l10n/test/test.de")
	docs, err := os.ReadFile("../../docs/results.md")
	if err != nil {
		t.Fatal(err)
	}
	names, err := filepath.Glob("results/*/test.de")
	if err != nil || len(names) == 0 {
		t.Fatalf("no archived system under results/ (%v)", err)
	}
	for _, hypFile := range names {
		name := filepath.Base(filepath.Dir(hypFile))
		t.Run(name, func(t *testing.T) {
			bleu, chrf, ter := archivetest.Scores(t, hypFile, refFile)
			got := map[string]string{"BLEU": bleu, "chrF2": chrf, "TER": ter}
			want := recordedScores(t, filepath.Join(filepath.Dir(hypFile), name+".json"))
			for metric, s := range got {
				if want[metric] != s {
					t.Errorf("%s: %s recomputed, %q recorded", metric, s, want[metric])
				}
			}
			row := docsRow(string(docs), name)
			if row == "" {
				t.Fatalf("docs/results.md has no table row for (`%s`)", name)
			}
			for metric, s := range got {
				if !strings.Contains(row, s) {
					t.Errorf("docs/results.md's row for %s lacks its %s %s: %s", name, metric, s, row)
				}
			}
		})
	}
}

// recordedScores reads the score_str of each metric of an archived
// NAME.json (one `strata eval --json` object a line).
func recordedScores(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s struct {
			Name     string `json:"name"`
			ScoreStr string `json:"score_str"`
		}
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[s.Name] = s.ScoreStr
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// docsRow is the first table row of docs naming the system as (`name`).
func docsRow(docs, name string) string {
	for _, line := range strings.Split(docs, "\n") {
		if strings.HasPrefix(line, "|") && strings.Contains(line, "(`"+name+"`)") {
			return line
		}
	}
	return ""
}
