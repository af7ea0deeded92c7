package analysis

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/langid"
	"github.com/strata-nmt/strata/model"
)

// lexicon is an invented vocabulary per language: word i means the same
// in every language, so sentences built from indices are n-way parallel.
var lexicon = map[string][]string{
	"en": {"open", "file", "save", "close", "window", "new", "folder", "print", "page", "edit"},
	"de": {"öffnen", "datei", "speichern", "schließen", "fenster", "neu", "ordner", "drucken", "seite", "bearbeiten"},
	"fr": {"ouvrir", "fichier", "enregistrer", "fermer", "fenêtre", "nouveau", "dossier", "imprimer", "feuille", "éditer"},
	"nl": {"openen", "bestand", "opslaan", "sluiten", "venster", "nieuw", "map", "afdrukken", "blad", "bewerken"},
}

var testLangs = []string{"en", "de", "fr", "nl"}

// sentences returns n index sentences of 2-5 words.
func sentences(n int, seed uint64) [][]int {
	r := rand.New(rand.NewPCG(seed, 2))
	out := make([][]int, n)
	for i := range out {
		for k := 0; k < 2+r.IntN(4); k++ {
			out[i] = append(out[i], r.IntN(len(lexicon["en"])))
		}
	}
	return out
}

func render(lang string, s []int) string {
	ws := make([]string, len(s))
	for i, w := range s {
		ws[i] = lexicon[lang][w]
	}
	return strings.Join(ws, " ")
}

func writeNWay(t *testing.T, dir, prefix string, sents [][]int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range testLangs {
		var sb strings.Builder
		for _, s := range sents {
			sb.WriteString(render(l, s) + "\n")
		}
		if err := os.WriteFile(filepath.Join(dir, prefix+"."+l), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fixture is a prepared English-centric toy data directory with n-way dev
// and test sets, and a tiny random model over its vocabulary.
type fixture struct {
	root, dataDir, devDir, testDir, modelPath string
	sys                                       *decode.Bundle
}

func newFixture(t *testing.T, scheme string) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{root: root, dataDir: filepath.Join(root, "data"), devDir: filepath.Join(root, "dev"), testDir: filepath.Join(root, "test")}
	train := sentences(200, 1)
	for _, x := range testLangs[1:] {
		var sb strings.Builder
		for _, s := range train {
			fmt.Fprintf(&sb, "%s\t%s\n", render("en", s), render(x, s))
		}
		if err := os.WriteFile(filepath.Join(root, "en-"+x+".tsv"), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writeNWay(t, f.devDir, "dev", sentences(16, 2))
	writeNWay(t, f.testDir, "test", sentences(12, 3))
	cfg := &data.Config{Root: root, Languages: testLangs, Tags: scheme, BPE: data.BPEConfig{Merges: 60},
		Splits: map[string][]data.CorpusSpec{"train": {{Pair: "en-{x}", Path: "en-{x}.tsv", Directions: "both", Each: testLangs[1:]}}}}
	cfg.SetDir(root)
	if _, err := data.Prepare(cfg, f.dataDir, data.PrepareOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	_, seq, err := decode.OpenVocab(f.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	mc, err := model.Preset("tiny")
	if err != nil {
		t.Fatal(err)
	}
	mc.SrcVocab, mc.TgtVocab, mc.PadID, mc.Dropout = seq.Vocab.Size(), seq.Vocab.Size(), data.PadID, 0
	m, err := model.New(mc, 5)
	if err != nil {
		t.Fatal(err)
	}
	f.modelPath = filepath.Join(root, "model.bin")
	if err := model.Save(f.modelPath, m, nil); err != nil {
		t.Fatal(err)
	}
	if f.sys, err = decode.Load(f.modelPath, f.dataDir); err != nil {
		t.Fatal(err)
	}
	return f
}

// lexDetector identifies a line's language as the one whose lexicon holds
// most of its words (a stand-in for lid.176 on the toy languages).
type lexDetector struct{}

func (lexDetector) Name() string { return "toy lexicon detector" }

func (lexDetector) Predict(line string, _ int, _ float32) []langid.Prediction {
	best, bestN := "", 0
	for _, l := range testLangs {
		n := 0
		for _, w := range strings.Fields(line) {
			for _, lw := range lexicon[l] {
				if w == lw {
					n++
				}
			}
		}
		if n > bestN {
			best, bestN = l, n
		}
	}
	if best == "" {
		return nil
	}
	return []langid.Prediction{{Label: "__label__" + best, Prob: 1}}
}

// greedyGen is greedy search with outputs of at most maxLen tokens (a
// random model never stops by itself).
func greedyGen(t *testing.T, f *fixture, maxLen int) Generator {
	t.Helper()
	o := decode.Defaults()
	o.Greedy, o.Beam, o.MaxLenA, o.MaxLenB = true, 1, 0, maxLen
	s, err := decode.NewSearcher(f.sys.Model, o)
	if err != nil {
		t.Fatal(err)
	}
	return SearchGenerator(s)
}

// generate returns the generator's output for every line, in order.
func generate(t *testing.T, f *fixture, gen Generator, d Direction, lines []string) [][]int32 {
	t.Helper()
	bs, err := data.InferenceBatches(f.sys.Seq, d.Src, d.Tgt, lines, 4096, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]int32, len(lines))
	for _, b := range bs {
		hyps, err := gen(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		for r, h := range hyps {
			out[b.Index[r]] = h
		}
	}
	return out
}
