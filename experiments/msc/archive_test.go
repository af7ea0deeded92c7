package msc

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/internal/sharedtest"
	"github.com/strata-nmt/strata/internal/textio"
	"github.com/strata-nmt/strata/metrics"
)

// TestArchivedScoresReproduce: every system archived under results/
// scores, from its test hypotheses and the l10n test references with
// SacreBLEU's defaults, the BLEU, chrF2 and TER its NAME.json records,
// and docs/results.md reports those three in the system's row of Tables
// 2 and 3. An archive and the report that cites it cannot drift apart.
func TestArchivedScoresReproduce(t *testing.T) {
	shared := sharedtest.Dir(t, "data/l10n/test/test.de")
	refs, err := textio.ReadLines(filepath.Join(shared, "data/l10n/test/test.de"))
	if err != nil {
		t.Fatal(err)
	}
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
			got := scoreHypotheses(t, hypFile, refs)
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

// scoreHypotheses is `strata eval -m bleu,chrf,ter` on one output file,
// each score as printed (two decimals).
func scoreHypotheses(t *testing.T, hypFile string, refs []string) map[string]string {
	t.Helper()
	hyps, err := textio.ReadLines(hypFile)
	if err != nil {
		t.Fatal(err)
	}
	streams := [][]string{refs}
	bleu, err := metrics.CorpusBLEU(hyps, streams, metrics.BLEUOptions{})
	if err != nil {
		t.Fatal(err)
	}
	chrf, err := metrics.CorpusCHRF(hyps, streams, metrics.CHRFOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ter, err := metrics.CorpusTER(hyps, streams, metrics.TEROptions{})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"BLEU": fmt.Sprintf("%.2f", bleu.Score), "chrF2": fmt.Sprintf("%.2f", chrf.Score),
		"TER": fmt.Sprintf("%.2f", ter.Score)}
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
