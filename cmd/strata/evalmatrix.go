package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/analysis"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/langid"
	"github.com/strata-nmt/strata/metrics"
)

// evalMatrixFlags are the options of strata eval-matrix.
type evalMatrixFlags struct {
	models                                   []string
	dataDir, pivotModel, test, out, lidModel string
	langs, directions, trained               []string
	pivot                                    string
	noPivot                                  bool
	maxLines, batch, maxTokens, threads      int
	workers                                  int
	opt                                      decode.Options
}

func init() {
	var f evalMatrixFlags
	cmd := &cobra.Command{
		Use:   "eval-matrix --model RUN --test DIR --output DIR",
		Short: "Translate and score every supervised and zero-shot direction of a test set",
		Long: `Evaluates a multilingual model on an n-way parallel test set (files test.LANG,
or FLORES-200 files such as deu_Latn.devtest, whose codes are mapped to the
toolkit's), on a pairwise one (Tatoeba's ita-nld/test.ita and test.nld,
ISO 639-3 codes mapped the same way), or on a directory of pairwise sets
(every pair with two of the languages, both directions), as in Mao et al.
(2023): for every direction, supervised (to or
from --pivot) and zero-shot (between two other languages), SacreBLEU BLEU
(tokenizer zh for Chinese targets, 13a otherwise), chrF and the off-target
rate (share of outputs whose language, identified by fastText lid.176, is not
the target); then averages over supervised and over zero-shot directions.
Zero-shot directions are also translated through the pivot (X→en→Y, the
paper's row 0), with the same model unless --pivot-model is given.

Writes OUT/matrix.json, OUT/matrix.md (also printed) and OUT/zeroshot_bleu.png,
and keeps every hypothesis under OUT/hyp; rerunning reuses them, so an
interrupted evaluation resumes (they are discarded when the model, test set
or search options change). 'strata eval-matrix table' compares systems.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runEvalMatrix(cmd, &f) },
	}
	fl := cmd.Flags()
	modelFlags(cmd, &f.models, &f.dataDir, &f.threads)
	trainedDirectionsFlag(cmd, &f.trained)
	decodersFlag(cmd, &f.workers)
	fl.StringVar(&f.test, "test", "", "test directory: n-way (test.LANG, FLORES *.devtest), a pair (test.ita, test.nld), or a directory of pair directories (Tatoeba)")
	fl.StringVarP(&f.out, "output", "o", "", "output directory")
	fl.StringSliceVar(&f.langs, "langs", nil, "languages (default: the model's languages found in the test set)")
	fl.StringSliceVar(&f.directions, "directions", nil, "directions to evaluate, e.g. de-fr,en-de (default: all)")
	fl.StringVar(&f.pivot, "pivot", "en", "hub language of the English-centric training data")
	fl.BoolVar(&f.noPivot, "no-pivot", false, "skip pivot translation of zero-shot directions")
	fl.StringVar(&f.pivotModel, "pivot-model", "", "model for the pivot legs (default: the evaluated model)")
	fl.IntVar(&f.maxLines, "max-lines", 0, "evaluate only the first N lines of the test set (0: all)")
	fl.StringVar(&f.lidModel, "lid-model", "", lidRuleHelp)
	fl.IntVar(&f.batch, "batch-size", 64, "sentences per batch")
	fl.IntVar(&f.maxTokens, "max-tokens", defaultDecodeMaxTokens, "padded source tokens per batch")
	searchFlags(cmd, &f.opt)
	cmd.AddCommand(evalMatrixTableCmd())
	cmd.AddCommand(evalMatrixSeedsCmd())
	rootCmd.AddCommand(cancelsCleanly(aliases(cmd, map[string]string{"out": "output"})))
}

func runEvalMatrix(cmd *cobra.Command, f *evalMatrixFlags) error {
	if len(f.models) == 0 || f.test == "" || f.out == "" {
		return fmt.Errorf("eval-matrix: --model, --test and --output are required")
	}
	log := cmd.ErrOrStderr()
	tr, err := matrixTranslator(f.models, f.dataDir, f)
	if err != nil {
		return err
	}
	if err := setTrainedDirections(tr.B, f.trained); err != nil {
		return err
	}
	langs, strict := f.langs, len(f.langs) > 0
	if !strict {
		langs = tr.B.Vocab.Languages()
	}
	ts, err := analysis.ReadTestSuite(f.test, langs, strict, f.maxLines)
	if err != nil {
		return err
	}
	det, fallback, err := loadIdentifier(f.lidModel, log)
	if err != nil {
		return err
	}
	opt := analysis.MatrixOptions{Pivot: f.pivot, NoPivot: f.noPivot, Detector: det, DetectorFallback: fallback,
		HypDir: filepath.Join(f.out, "hyp"), Log: log, Trained: tr.B.Directions}
	if opt.Directions, err = parseDirections(f.directions); err != nil {
		return err
	}
	var pivotFile string
	if f.pivotModel != "" {
		ptr, err := matrixTranslator([]string{f.pivotModel}, "", f)
		if err != nil {
			return err
		}
		opt.PivotTranslator = ptr
		pivotFile = ptr.B.ModelPath
	}
	fp, err := analysis.NewHypFingerprint(tr.B.ModelPaths, pivotFile, ts, f.maxLines, f.opt)
	if err != nil {
		return err
	}
	if err := analysis.PrepareHypDir(opt.HypDir, fp, log); err != nil {
		return err
	}
	ctx := cmd.Context()
	res, err := analysis.EvalSuite(ctx, tr, ts, opt)
	if err != nil {
		return err
	}
	res.Model = tr.B.Name()
	if err := analysis.WriteMatrixOutputs(f.out, res); err != nil {
		return err
	}
	if err := res.WriteMarkdown(cmd.OutOrStdout()); err != nil {
		return err
	}
	written := analysis.MatrixJSON + " and " + analysis.MatrixMarkdown
	if res.ZeroShot.Directions > 0 {
		written = analysis.MatrixJSON + ", " + analysis.MatrixMarkdown + " and " + analysis.MatrixHeatmap
	}
	fmt.Fprintf(log, "wrote %s in %s\n", written, f.out)
	return nil
}

func matrixTranslator(models []string, dataDir string, f *evalMatrixFlags) (*decode.Translator, error) {
	tr, err := newTranslator(models, dataDir, f.opt, f.threads, f.workers)
	if err != nil {
		return nil, err
	}
	tr.BatchSize, tr.MaxTokens, tr.Warn = f.batch, f.maxTokens, os.Stderr
	return tr, nil
}

// testLanguages returns the requested languages, or the model's languages
// that the test directory has files for.
func testLanguages(dir string, requested, model []string) ([]string, error) {
	if len(requested) > 0 {
		return requested, nil
	}
	found, err := analysis.ScanTestSet(dir)
	if err != nil {
		return nil, err
	}
	var langs []string
	for _, l := range model {
		if found[l] != "" {
			langs = append(langs, l)
		}
	}
	if len(langs) < 2 {
		return nil, fmt.Errorf("%s has files for %d of the model's languages %v: need at least two (or give --langs)", dir, len(langs), model)
	}
	return langs, nil
}

func parseDirections(specs []string) ([]analysis.Direction, error) {
	var out []analysis.Direction
	for _, s := range specs {
		d, err := analysis.ParseDirection(s)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// repoRoot walks up from the working directory to the directory holding
// go.mod.
func repoRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if fileExists(filepath.Join(dir, "go.mod")) {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

func evalMatrixTableCmd() *cobra.Command {
	var baseline, reported, lidModel, pValue string
	var samples int
	var againstPivot, asJSON, perDirection bool
	cmd := &cobra.Command{
		Use:   "table NAME=MATRIX.json ... [--baseline NAME] [--reported FILE] [--json]",
		Short: "Compare systems in the layout of the paper's Table 2 (Markdown on stdout)",
		Long: `Prints one row per system (zero-shot and supervised averages) and the pivot
rows. With --baseline NAME, every other system is tested against NAME in
every direction with a paired bootstrap on BLEU (sacreBLEU's resamples,
a two-sided p-value unless --p-value sacrebleu asks for sacreBLEU's paired_bs
one; the tables name the test used) on the hypotheses
eval-matrix kept next to each matrix.json, and the table counts the
zero-shot directions where the difference is significant (p < 0.05) and
which way; the per-direction tests follow the table, with the difference
of the zero-shot and supervised averages and its 95% interval (every
direction's lines resampled within it). With --lid-model (the identifier
eval-matrix used), the averages' off-target rates are tested too, and
matrices written before eval-matrix identified the references get the
references' off-target rate (the identifier's error) and the outputs'
off-target rate over the lines whose reference is identified as the
target, from the kept hypotheses. With
--against-pivot, each system's direct zero-shot translation is tested the
same way against its own pivoting through the hub language (the paper's
row #0). With --reported FILE,
published scores (e.g. the paper's column for the setting reproduced) are
printed beside each system's own. With --json, the same numbers, unrounded,
are printed as a JSON array with one object per system (name, zero_shot,
supervised, pivot_zero_shot, reported, significance) for scripts.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rows, paths, err := readSummaryRows(args)
			if err != nil {
				return err
			}
			if baseline != "" && againstPivot {
				return fmt.Errorf("--baseline and --against-pivot each fill the significance column: give one")
			}
			det, err := tableIdentifier(lidModel)
			if err != nil {
				return err
			}
			if det != nil {
				if err := addReferenceLID(rows, paths, det); err != nil {
					return err
				}
			}
			if baseline != "" || againstPivot {
				if err := tableSignificance(rows, paths, baseline, againstPivot, pValue, samples, det); err != nil {
					return err
				}
			}
			var rep map[string]analysis.Reported
			if reported != "" {
				if rep, err = analysis.ReadReported(reported); err != nil {
					return err
				}
			}
			if asJSON {
				return analysis.SummaryJSON(cmd.OutOrStdout(), rows, rep)
			}
			return printSummaryTable(cmd.OutOrStdout(), rows, rep, perDirection)
		},
	}
	cmd.Flags().StringVar(&baseline, "baseline", "", "system NAME to test every other system against (paired bootstrap per direction)")
	cmd.Flags().StringVar(&reported, "reported", "", "published scores to print beside each system's (a file of lines NAME ZERO-SHOT-BLEU OFF-TARGET-% SUPERVISED-BLEU, - for none; NAME \"pivot\" for the pivot rows)")
	cmd.Flags().IntVar(&samples, "bootstrap-samples", metrics.DefaultBootstrapSamples, "paired bootstrap resamples")
	cmd.Flags().StringVar(&pValue, "p-value", "two-sided", "paired bootstrap p-value: two-sided, or sacrebleu (sacreBLEU 2.x's paired_bs definition)")
	cmd.Flags().BoolVar(&againstPivot, "against-pivot", false, "test every system's direct zero-shot translation against its pivoting through the hub (matrices evaluated with pivoting)")
	cmd.Flags().BoolVar(&perDirection, "per-direction", false, "after the table, print each system's matrix.md (every direction; with --lid-model, the references' language ID)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the table as JSON (one object per system) instead of Markdown")
	cmd.Flags().StringVar(&lidModel, "lid-model", "", "the fastText language-ID model eval-matrix used: identifies the references where a matrix lacks them and, with --baseline or --against-pivot, tests the difference of the off-target rates too")
	return cmd
}

// tableIdentifier loads the --lid-model of the table commands (table,
// seeds); without one (nil) they test BLEU only.
func tableIdentifier(path string) (analysis.Identifier, error) {
	if path == "" {
		return nil, nil
	}
	m, err := langid.Load(path)
	if err != nil {
		return nil, err
	}
	return m, nil
}

func readSummaryRows(args []string) ([]analysis.SummaryRow, []string, error) {
	var rows []analysis.SummaryRow
	var paths []string
	for _, a := range args {
		name, path, ok := strings.Cut(a, "=")
		if !ok {
			return nil, nil, fmt.Errorf("%q: want NAME=FILE, e.g. PostNorm=runs/post/matrix/matrix.json", a)
		}
		r, err := analysis.ReadMatrix(path)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, analysis.SummaryRow{Name: name, Result: r})
		paths = append(paths, path)
	}
	return rows, paths, nil
}

// addReferenceLID identifies the references of every matrix that does
// not record them.
func addReferenceLID(rows []analysis.SummaryRow, paths []string, det analysis.Identifier) error {
	for i, r := range rows {
		if err := analysis.AddReferenceLID(r.Result, analysis.HypDirOf(paths[i]), det); err != nil {
			return fmt.Errorf("%s (%s): %w", r.Name, paths[i], err)
		}
	}
	return nil
}

// addPivotSignificance tests every row's direct zero-shot translation
// against its pivoting (analysis.PivotViews).
func addPivotSignificance(rows []analysis.SummaryRow, paths []string, opt metrics.BootstrapOptions, det analysis.Identifier) error {
	for i, r := range rows {
		direct, pivot, err := analysis.PivotViews(r.Result)
		if err != nil {
			return fmt.Errorf("--against-pivot, %s: %w", r.Name, err)
		}
		hyp := analysis.HypDirOf(paths[i])
		via := fmt.Sprintf("%s via %s", r.Name, r.Result.Pivot)
		if rows[i].Sig, err = analysis.CompareMatrices(r.Name, direct, hyp, via, pivot, hyp, opt, det); err != nil {
			return err
		}
	}
	return nil
}

// addSignificance tests every row against the baseline row.
func addSignificance(rows []analysis.SummaryRow, paths []string, baseline string, opt metrics.BootstrapOptions, det analysis.Identifier) error {
	bi := -1
	for i, r := range rows {
		if r.Name == baseline {
			bi = i
		}
	}
	if bi < 0 {
		return fmt.Errorf("--baseline %s is none of the systems given", baseline)
	}
	for i := range rows {
		if i == bi {
			continue
		}
		s, err := analysis.CompareMatrices(rows[i].Name, rows[i].Result, analysis.HypDirOf(paths[i]),
			baseline, rows[bi].Result, analysis.HypDirOf(paths[bi]), opt, det)
		if err != nil {
			return err
		}
		rows[i].Sig = s
	}
	return nil
}

// tableSignificance fills the table's significance column: every system
// against baseline, or each system's direct zero-shot translation against
// its own pivoting.
func tableSignificance(rows []analysis.SummaryRow, paths []string, baseline string, againstPivot bool, pValue string, samples int, det analysis.Identifier) error {
	method, err := metrics.ParsePValueMethod(pValue)
	if err != nil {
		return fmt.Errorf("--p-value: %w", err)
	}
	opt := metrics.BootstrapOptions{Samples: samples, PValue: method}
	if againstPivot {
		return addPivotSignificance(rows, paths, opt, det)
	}
	return addSignificance(rows, paths, baseline, opt, det)
}

// printSummaryTable prints the Markdown table and, with perDirection,
// each system's every direction.
func printSummaryTable(w io.Writer, rows []analysis.SummaryRow, rep map[string]analysis.Reported, perDirection bool) error {
	if err := analysis.SummaryMarkdownReported(w, rows, rep); err != nil || !perDirection {
		return err
	}
	for _, r := range rows {
		fmt.Fprintf(w, "\n## %s\n\n", r.Name)
		if err := r.Result.WriteMarkdown(w); err != nil {
			return err
		}
	}
	return nil
}
