package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/analysis"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/internal/textio"
	"github.com/strata-nmt/strata/metrics"
	"github.com/strata-nmt/strata/rundir"
)

type difficultyFlags struct {
	model, dataDir, source, reference, out string
	scores                                 string
	src, tgt, tokenize                     string
	last, buckets, threads                 int
	perToken                               bool
}

func init() {
	var f difficultyFlags
	cmd := &cobra.Command{
		Use:   "difficulty (--model RUN --last K | --scores TSV) --source F --ref F --output DIR BASELINE=HYP [NAME=HYP...]",
		Short: "BLEU of several systems on test subsets of increasing difficulty (the MSC paper's Figure 3)",
		Long: `Ranks the test pairs by difficulty as the MSC paper does: the loss -log P(y|x)
of each reference under the last K numbered checkpoints of a run (a shallow
baseline in the paper, K = 20; train with --keep-last K to keep them), its
mean plus its standard deviation over the checkpoints. The ranking is cut
into --buckets equal parts ("Simple", "Ordinary", "Difficult",
"Challenging" for four), and every system's hypotheses (NAME=FILE, aligned
with --source) are scored with BLEU on each part; the first system is the
baseline the others are compared with. The paper's loss is the sentence's
-log P(y|x), so longer pairs rank as harder; --per-token ranks by the loss
per reference token instead. --scores reads the ranking from a
difficulty.tsv written earlier instead of scoring checkpoints: a study
keeps the ranking and buckets later systems with it after the baseline's
checkpoints are gone.

Every later system's gain over the baseline is tested in each bucket (a
two-sided paired bootstrap on the bucket's lines, seed 12345 + bucket index),
and so is its gain in the hardest bucket minus its gain in the easiest.

Writes a Markdown table to standard output, and to --output: difficulty.tsv
(line, score, mean, bucket), difficulty.json (buckets, BLEU per system,
gains with 95% intervals and p-values) and difficulty.png (BLEU gain over
the baseline per bucket; BLEU itself when only one system is given).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runDifficulty(cmd.OutOrStdout(), &f, args) },
	}
	fl := cmd.Flags()
	modelFlags(cmd, &f.model, &f.dataDir, &f.threads)
	fl.Lookup("model").Usage = "run directory whose numbered checkpoints score the pairs"
	fl.IntVar(&f.last, "last", 20, "use the last K numbered checkpoints")
	fl.StringVar(&f.scores, "scores", "", "rank by the scores of this difficulty.tsv (from an earlier run) instead of --model's checkpoints")
	fl.StringVar(&f.source, "source", "", "source sentences, one per line")
	fl.StringVar(&f.reference, "ref", "", "reference translations, aligned with --source")
	fl.StringVar(&f.src, "src-lang", "", "source language (multilingual models)")
	fl.StringVar(&f.tgt, "tgt-lang", "", "target language (multilingual models)")
	fl.StringVar(&f.tokenize, "tokenize", "13a", "BLEU tokenizer (13a, intl, zh, char, none)")
	fl.IntVar(&f.buckets, "buckets", 4, "number of equal parts")
	fl.BoolVar(&f.perToken, "per-token", false, "rank by loss per reference token instead of the sentence's -log P(y|x), which grows with length")
	fl.StringVarP(&f.out, "output", "o", "", "directory for difficulty.{tsv,json,png}")
	analyzeCmd.AddCommand(aliases(cmd, map[string]string{"out": "output", "reference": "ref"}))
}

func parseSystems(args []string, lines int) ([]analysis.HypothesisFile, error) {
	var out []analysis.HypothesisFile
	for _, a := range args {
		name, path, ok := strings.Cut(a, "=")
		if !ok || name == "" || path == "" {
			return nil, fmt.Errorf("analyze difficulty: argument %q: want NAME=HYPOTHESIS_FILE", a)
		}
		hyps, err := textio.ReadLines(path)
		if err != nil {
			return nil, err
		}
		if len(hyps) != lines {
			return nil, fmt.Errorf("analyze difficulty: %s has %d lines, the source has %d", path, len(hyps), lines)
		}
		out = append(out, analysis.HypothesisFile{Name: name, Path: path, Hyps: hyps})
	}
	return out, nil
}

func runDifficulty(w io.Writer, f *difficultyFlags, args []string) error {
	if (f.model == "") == (f.scores == "") {
		return fmt.Errorf("analyze difficulty: give exactly one of --model (checkpoints to score the pairs with) and --scores (a difficulty.tsv)")
	}
	if f.source == "" || f.reference == "" || f.out == "" {
		return fmt.Errorf("analyze difficulty: --source, --ref and --output are required")
	}
	srcs, refs, err := readAligned(f.source, f.reference)
	if err != nil {
		return fmt.Errorf("analyze difficulty: %w", err)
	}
	systems, err := parseSystems(args, len(srcs))
	if err != nil {
		return err
	}
	bleu, err := metrics.NewBLEU(metrics.BLEUOptions{Tokenize: f.tokenize})
	if err != nil {
		return err // before the scoring, which takes minutes
	}
	cks, scores, mean, err := difficultyScores(f, srcs, refs)
	if err != nil {
		return err
	}
	buckets, err := analysis.Buckets(scores, f.buckets)
	if err != nil {
		return err
	}
	rep, err := analysis.BuildDifficultyReport(bleu, systems, refs, buckets, scores)
	if err != nil {
		return err
	}
	rep.Checkpoints, rep.Scores, rep.Tokenize, rep.PerToken = cks, f.scores, f.tokenize, f.perToken
	return analysis.WriteDifficulty(w, f.out, rep, buckets, scores, mean)
}

// difficultyScores ranks the pairs: read from --scores, or computed from
// the last --last checkpoints of --model (returned, for the report).
func difficultyScores(f *difficultyFlags, srcs, refs []string) (cks []string, scores, mean []float64, err error) {
	if f.scores != "" {
		if f.perToken {
			return nil, nil, nil, fmt.Errorf("analyze difficulty: --per-token chooses how checkpoints score the pairs; %s is ranked already", f.scores)
		}
		if scores, mean, err = analysis.ReadDifficultyScores(f.scores); err != nil {
			return nil, nil, nil, err
		}
		if len(scores) != len(srcs) {
			return nil, nil, nil, fmt.Errorf("analyze difficulty: %s ranks %d pairs, %s has %d", f.scores, len(scores), f.source, len(srcs))
		}
		return nil, scores, mean, nil
	}
	if cks, err = rundir.LastCheckpoints(f.model, f.last); err != nil {
		return nil, nil, nil, err
	}
	losses, err := checkpointLosses(cks, f, srcs, refs)
	if err != nil {
		return nil, nil, nil, err
	}
	scores, mean, err = analysis.Difficulty(losses)
	return cks, scores, mean, err
}

// checkpointLosses scores every reference under each checkpoint:
// losses[k][i] = -log P(ref_i | src_i) under checkpoint k.
func checkpointLosses(cks []string, f *difficultyFlags, srcs, refs []string) ([][]float64, error) {
	var losses [][]float64
	for k, ck := range cks {
		fmt.Fprintf(os.Stderr, "scoring %d pairs with %s (%d/%d)\n", len(srcs), ck, k+1, len(cks))
		tr, err := newTranslator([]string{ck}, f.dataDir, decode.Defaults(), f.threads, 0)
		if err != nil {
			return nil, err
		}
		sc, err := tr.ScoreLines(srcs, refs, f.src, f.tgt)
		if err != nil {
			return nil, err
		}
		l := make([]float64, len(sc))
		for i, s := range sc {
			l[i] = -s.LogProb
			if f.perToken {
				l[i] /= float64(s.Tokens())
			}
		}
		losses = append(losses, l)
	}
	return losses, nil
}
