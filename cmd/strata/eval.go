package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/strata-nmt/strata/catalog/placeholder"
	"github.com/strata-nmt/strata/internal/textio"
	"github.com/strata-nmt/strata/metrics"
)

// evalFlags holds strata eval's command-line options.
type evalFlags struct {
	hyp, baseline      string
	refs               []string
	metricNames        []string
	tokenize, smooth   string
	smoothValue        float64
	maxOrder           int
	lowercase          bool
	chrfChar, chrfWord int
	chrfBeta           int
	chrfEps, chrfSpace bool
	rougeWhitespace    bool
	ter                metrics.TEROptions
	pairedBS           bool
	confidence         bool
	confidenceN        int
	bsSamples          int
	pValue             string
	seed               uint64
	jsonOut            bool
	width              int
	placeholders       string
}

func init() {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval --hyp H --ref R [--ref R2] [--metrics bleu,chrf]",
		Short: "Score translations with SacreBLEU-exact BLEU/chrF/TER, multi-bleu, ROUGE; paired bootstrap",
		Long: `Scores a hypothesis file against one or more reference files (one segment
per line) and prints each metric with its SacreBLEU-style signature.

Metrics: bleu (SacreBLEU 2.x), chrf (chrF, or chrF++ with --chrf-word-order 2),
ter (SacreBLEU 2.x's TER, an error rate: lower is better), multi-bleu (Moses
multi-bleu.perl on tokenised text), rouge (ROUGE-1/2/L F1).
--confidence adds each score's 95% bootstrap interval as sacreBLEU's
--confidence does; --paired-bs compares --hyp with --baseline by paired
bootstrap resampling on sacreBLEU's resamples, with a two-sided p-value
(--p-value sacrebleu gives sacreBLEU's paired_bs p-value instead). See
docs/metrics.md.`,
		Args: evalArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runEval(cmd, &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.hyp, "hyp", "i", "-", "hypothesis file, one segment per line, plain or gzip (- for standard input; -i as in sacreBLEU)")
	fl.StringArrayVar(&f.refs, "ref", nil, "reference file, plain or gzip (repeat for several references)")
	fl.StringSliceVarP(&f.metricNames, "metrics", "m", []string{"bleu", "chrf"}, "comma-separated: bleu, chrf, ter, multi-bleu, rouge")
	fl.StringVar(&f.tokenize, "tokenize", "13a", "BLEU tokenizer: "+strings.Join(metrics.TokenizerNames(), ", "))
	fl.BoolVar(&f.lowercase, "lowercase", false, "case-insensitive BLEU, chrF and multi-bleu (multi-bleu's -lc); TER has its own --ter-case-sensitive")
	fl.StringVar(&f.smooth, "smooth", "exp", "BLEU smoothing: exp, floor, add-k, none")
	fl.Float64Var(&f.smoothValue, "smooth-value", 0, "value for floor (default 0.1) and add-k (default 1)")
	fl.IntVar(&f.maxOrder, "max-ngram-order", metrics.DefaultMaxNgramOrder, "BLEU's maximum n-gram order")
	fl.IntVar(&f.chrfChar, "chrf-char-order", metrics.DefaultChrFCharOrder, "chrF character n-gram order")
	fl.IntVar(&f.chrfWord, "chrf-word-order", 0, "chrF word n-gram order (2 gives chrF++)")
	fl.IntVar(&f.chrfBeta, "chrf-beta", metrics.DefaultChrFBeta, "chrF beta")
	fl.BoolVar(&f.chrfEps, "chrf-eps-smoothing", false, "chrF eps smoothing (chrF++.py, NLTK, Moses) instead of effective order")
	fl.BoolVar(&f.chrfSpace, "chrf-whitespace", false, "keep whitespace in chrF character n-grams")
	fl.BoolVar(&f.rougeWhitespace, "rouge-whitespace", false, "ROUGE: split on whitespace instead of ROUGE-1.5.5's ASCII tokenisation")
	fl.BoolVar(&f.ter.CaseSensitive, "ter-case-sensitive", false, "TER: keep case (SacreBLEU's TER lowercases by default)")
	fl.BoolVar(&f.ter.Normalized, "ter-normalized", false, "TER: tercom normalisation (unescape entities, split punctuation)")
	fl.BoolVar(&f.ter.NoPunct, "ter-no-punct", false, "TER: remove the punctuation . , ? : ; ! \" ( )")
	fl.BoolVar(&f.ter.AsianSupport, "ter-asian-support", false, "TER: split CJK characters (with --ter-normalized), remove CJK punctuation (with --ter-no-punct)")
	fl.BoolVar(&f.pairedBS, "paired-bs", false, "paired bootstrap resampling of --hyp against --baseline")
	fl.StringVar(&f.baseline, "baseline", "", "baseline system's file for --paired-bs")
	fl.BoolVar(&f.confidence, "confidence", false, "bootstrap each score's mean and 95% confidence interval (sacreBLEU's --confidence)")
	fl.IntVar(&f.confidenceN, "confidence-n", metrics.DefaultBootstrapSamples, "bootstrap samples for --confidence")
	fl.IntVar(&f.bsSamples, "paired-bs-n", metrics.DefaultBootstrapSamples, "bootstrap samples")
	fl.StringVar(&f.pValue, "p-value", "two-sided", "--paired-bs p-value: two-sided, or sacrebleu (sacreBLEU 2.x's paired_bs definition)")
	fl.Uint64Var(&f.seed, "seed", metrics.DefaultBootstrapSeed, "bootstrap seed (sacreBLEU's SACREBLEU_SEED)")
	fl.StringVar(&f.placeholders, "placeholders", "", "source file: also report the share of hypotheses that are not empty and hold their source line's placeholders (printf, braces, shell variables, tags, entities; docs/l10n.md)")
	fl.BoolVar(&f.jsonOut, "json", false, "print one JSON object per metric and line")
	fl.IntVar(&f.width, "width", 2, "decimals printed for scores")
	// --reference as score-nll takes it; --smooth-method as sacreBLEU spells it
	rootCmd.AddCommand(aliases(cmd, map[string]string{"reference": "ref", "smooth-method": "smooth"}))
}

// evalArgs refuses positional arguments saying where the file goes:
// sacreBLEU takes references positionally (sacrebleu REF -i HYP), and
// cobra's own answer, unknown command "REF", sends the user looking
// elsewhere. With --ref given, a positional file is the hypothesis.
func evalArgs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if cmd.Flags().Changed("ref") && !cmd.Flags().Changed("hyp") {
		return fmt.Errorf("eval: unexpected argument %q: give the hypothesis file with --hyp or -i (-i %s), or on standard input", args[0], args[0])
	}
	return fmt.Errorf("eval: unexpected argument %q: give reference files with --ref (--ref %s; repeat --ref for several), not positionally as sacreBLEU does", args[0], args[0])
}

// namedMetric is a metric with what is needed to print it.
type namedMetric struct {
	m      metrics.Metric
	corpus func(hyps []string, refs [][]string) (evalResult, error)
}

// evalResult is one metric's printed result.
type evalResult struct {
	Name      string
	Score     float64
	Signature string
	Verbose   string
	Extra     map[string]any
}

func runEval(cmd *cobra.Command, f *evalFlags) error {
	if len(f.refs) == 0 {
		return fmt.Errorf("eval: at least one --ref is required")
	}
	if f.pairedBS && f.baseline == "" {
		return fmt.Errorf("eval: --paired-bs needs --baseline")
	}
	if _, err := metrics.ParsePValueMethod(f.pValue); err != nil {
		return fmt.Errorf("eval: --p-value: %w", err)
	}
	if err := checkEvalNumbers(f); err != nil {
		return err
	}
	if f.pairedBS && f.confidence {
		return fmt.Errorf("eval: --paired-bs already prints both systems' confidence intervals; drop --confidence")
	}
	if err := checkTERFlags(cmd, f.metricNames); err != nil {
		return err
	}
	ms, err := buildMetrics(cmd, f)
	if err != nil {
		return err
	}
	hyps, refs, err := readEvalInputs(f.hyp, f.refs)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.pairedBS {
		base, err := textio.ReadLines(f.baseline)
		if err != nil {
			return err
		}
		if len(base) != len(hyps) {
			return fmt.Errorf("eval: baseline file %s has %d lines but hypothesis file %s has %d",
				f.baseline, len(base), displayName(f.hyp), len(hyps))
		}
		return printPaired(out, f, ms, base, hyps, refs)
	}
	var results []evalResult
	for _, nm := range ms {
		r, err := nm.corpus(hyps, refs)
		if err == nil && f.confidence {
			err = withConfidence(&r, nm.m, hyps, refs, f)
		}
		if err != nil {
			return fmt.Errorf("eval: %s: %w", nm.m.Name(), err)
		}
		results = append(results, r)
	}
	if f.placeholders != "" {
		r, err := placeholdersKept(f.placeholders, hyps)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	if f.jsonOut {
		return printJSON(out, f.width, results)
	}
	return printTable(out, f.width, results)
}

// checkEvalNumbers refuses numeric flags out of range. The metrics
// package reads 0 as "the default", so without this --max-ngram-order 0,
// --chrf-beta 0 or --paired-bs-n 0 would silently score with 4, 2 or 1000
// while the user believes otherwise.
func checkEvalNumbers(f *evalFlags) error {
	for _, c := range []struct {
		flag string
		v    int
		min  int
	}{
		{"width", f.width, 0},
		{"max-ngram-order", f.maxOrder, 1},
		{"chrf-char-order", f.chrfChar, 1},
		{"chrf-beta", f.chrfBeta, 1},
		{"confidence-n", f.confidenceN, 1},
		{"paired-bs-n", f.bsSamples, 1},
	} {
		if c.v < c.min {
			return fmt.Errorf("eval: --%s %d: must be at least %d", c.flag, c.v, c.min)
		}
	}
	if f.smoothValue < 0 {
		return fmt.Errorf("eval: --smooth-value %g: must not be negative", f.smoothValue)
	}
	return nil
}

// placeholdersKept is the share (%) of hypotheses that keep their source
// line's placeholders.
func placeholdersKept(srcPath string, hyps []string) (evalResult, error) {
	srcs, err := textio.ReadLines(srcPath)
	if err != nil {
		return evalResult{}, err
	}
	if len(srcs) != len(hyps) {
		return evalResult{}, fmt.Errorf("eval: --placeholders file %s has %d lines but the hypotheses have %d", srcPath, len(srcs), len(hyps))
	}
	n := placeholder.Kept(srcs, hyps, placeholder.Options{})
	return evalResult{Name: "placeholders", Score: 100 * float64(n) / float64(len(hyps)),
		Verbose:   fmt.Sprintf("%d/%d lines keep every placeholder", n, len(hyps)),
		Signature: "placeholders|check:strata-placeholder",
		Extra:     map[string]any{"kept": n, "lines": len(hyps)}}, nil
}

// withConfidence adds the bootstrap mean and 95% interval to a result, in
// sacreBLEU's layout: "(μ = 24.70 ± 0.72)" before the details, bs and seed
// in the signature.
func withConfidence(r *evalResult, m metrics.Metric, hyps []string, refs [][]string, f *evalFlags) error {
	seed := f.seed
	e, sig, err := metrics.Bootstrap(m, hyps, refs, metrics.BootstrapOptions{Samples: f.confidenceN, Seed: &seed})
	if err != nil {
		return err
	}
	r.Verbose = strings.TrimSpace(fmt.Sprintf("(μ = %.*f ± %.*f) %s", f.width, e.Mean, f.width, e.CI, r.Verbose))
	r.Signature = sig
	if r.Extra == nil {
		r.Extra = map[string]any{}
	}
	r.Extra["mean"], r.Extra["ci"], r.Extra["lower"], r.Extra["upper"] = e.Mean, e.CI, e.Lower, e.Upper
	return nil
}

func displayName(p string) string {
	if p == "-" {
		return "(standard input)"
	}
	return p
}

// readEvalInputs reads the hypotheses and reference streams and checks
// that every file has the same number of lines.
func readEvalInputs(hypPath string, refPaths []string) ([]string, [][]string, error) {
	hyps, err := textio.ReadLines(hypPath)
	if err != nil {
		return nil, nil, err
	}
	if len(hyps) == 0 {
		return nil, nil, fmt.Errorf("eval: hypothesis file %s is empty: nothing to score", displayName(hypPath))
	}
	refs := make([][]string, len(refPaths))
	for k, p := range refPaths {
		if refs[k], err = textio.ReadLines(p); err != nil {
			return nil, nil, err
		}
		if len(refs[k]) != len(hyps) {
			return nil, nil, fmt.Errorf("eval: hypothesis file %s has %d lines but reference file %s has %d",
				displayName(hypPath), len(hyps), p, len(refs[k]))
		}
	}
	for i := range hyps {
		empty := true
		for k := range refs {
			empty = empty && refs[k][i] == ""
		}
		if empty {
			return nil, nil, fmt.Errorf("eval: line %d is empty in every reference file (%s); SacreBLEU refuses empty references too",
				i+1, strings.Join(refPaths, ", "))
		}
	}
	return hyps, refs, nil
}

// terFlagNames are the flags that only configure TER.
var terFlagNames = []string{"ter-case-sensitive", "ter-normalized", "ter-no-punct", "ter-asian-support"}

// checkTERFlags refuses TER options when TER is not among the metrics: the
// option would silently change nothing.
func checkTERFlags(cmd *cobra.Command, names []string) error {
	for _, n := range names {
		if strings.EqualFold(strings.TrimSpace(n), "ter") {
			return nil
		}
	}
	for _, fl := range terFlagNames {
		if cmd.Flags().Changed(fl) {
			return fmt.Errorf("eval: --%s configures TER, which --metrics does not include (add ter)", fl)
		}
	}
	return nil
}

// lowerIsBetter reports the metrics where a lower score is better: TER,
// an error rate. The rest are higher-is-better.
func lowerIsBetter(m metrics.Metric) bool {
	_, ok := m.(*metrics.TER)
	return ok
}

func buildMetrics(cmd *cobra.Command, f *evalFlags) ([]namedMetric, error) {
	bo := metrics.BLEUOptions{Tokenize: f.tokenize, Lowercase: f.lowercase, Smooth: f.smooth, MaxNgramOrder: f.maxOrder}
	if cmd.Flags().Changed("smooth-value") {
		bo.SmoothValue = &f.smoothValue
	}
	co := metrics.CHRFOptions{CharOrder: f.chrfChar, WordOrder: f.chrfWord, Beta: f.chrfBeta,
		Lowercase: f.lowercase, Whitespace: f.chrfSpace, EpsSmoothing: f.chrfEps}
	var out []namedMetric
	for _, name := range f.metricNames {
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "bleu":
			b, err := metrics.NewBLEU(bo)
			if err != nil {
				return nil, fmt.Errorf("eval: %w", err)
			}
			out = append(out, namedMetric{b, func(h []string, r [][]string) (evalResult, error) {
				s, err := b.Corpus(h, r)
				return evalResult{"BLEU", s.Score, s.Signature(), s.Verbose(), map[string]any{
					"counts": s.Counts, "totals": s.Totals, "precisions": s.Precisions, "bp": s.BP,
					"ratio": s.Ratio(), "sys_len": s.SysLen, "ref_len": s.RefLen}}, err
			}})
		case "chrf":
			c, err := metrics.NewCHRF(co)
			if err != nil {
				return nil, fmt.Errorf("eval: %w", err)
			}
			out = append(out, namedMetric{c, func(h []string, r [][]string) (evalResult, error) {
				s, err := c.Corpus(h, r)
				return evalResult{s.Name, s.Score, s.Signature(), "", nil}, err
			}})
		case "ter":
			tm, err := metrics.NewTER(f.ter)
			if err != nil {
				return nil, fmt.Errorf("eval: %w", err)
			}
			out = append(out, namedMetric{tm, func(h []string, r [][]string) (evalResult, error) {
				s, err := tm.Corpus(h, r)
				// SacreBLEU prints nothing after TER's score.
				return evalResult{"TER", s.Score, s.Signature(), "",
					map[string]any{"num_edits": s.NumEdits, "ref_length": s.RefLength}}, err
			}})
		case "multi-bleu":
			mb := metrics.NewMultiBLEU(f.lowercase)
			out = append(out, namedMetric{mb, func(h []string, r [][]string) (evalResult, error) {
				s, err := mb.Corpus(h, r)
				return evalResult{mb.Name(), s.Score, s.Signature(), strings.TrimPrefix(s.String(), fmt.Sprintf("BLEU = %.2f, ", s.Score)),
					map[string]any{"precisions": s.Precisions, "bp": s.BP, "sys_len": s.SysLen, "ref_len": s.RefLen}}, err
			}})
		case "rouge":
			for _, v := range []string{metrics.Rouge1, metrics.Rouge2, metrics.RougeL} {
				rg, _ := metrics.NewROUGE(v, metrics.ROUGEOptions{Whitespace: f.rougeWhitespace})
				out = append(out, namedMetric{rg, func(h []string, r [][]string) (evalResult, error) {
					s, err := rg.Corpus(h, r)
					return evalResult{s.Name(), s.F1, s.Signature(),
						fmt.Sprintf("(R = %.2f P = %.2f)", s.Recall, s.Precision),
						map[string]any{"recall": s.Recall, "precision": s.Precision}}, err
				}})
			}
		default:
			return nil, fmt.Errorf("eval: unknown metric %q (want bleu, chrf, ter, multi-bleu or rouge)", name)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("eval: --metrics names no metric (want a comma-separated list of bleu, chrf, ter, multi-bleu, rouge)")
	}
	return out, nil
}

func printTable(w io.Writer, width int, rs []evalResult) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tscore\tdetails")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%.*f\t%s\n", r.Name, width, r.Score, r.Verbose)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	sigs := make([][2]string, len(rs))
	for i, r := range rs {
		sigs[i] = [2]string{r.Name, r.Signature}
	}
	return printSignatures(w, sigs)
}

// printSignatures prints a second table so that long signatures do not
// widen the score table's columns.
func printSignatures(w io.Writer, sigs [][2]string) error {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tsignature")
	for _, s := range sigs {
		fmt.Fprintf(tw, "%s\t%s\n", s[0], s[1])
	}
	return tw.Flush()
}

func printJSON(w io.Writer, width int, rs []evalResult) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range rs {
		obj := map[string]any{"name": r.Name, "score": r.Score,
			"score_str": fmt.Sprintf("%.*f", width, r.Score), "signature": r.Signature}
		if r.Verbose != "" {
			obj["verbose_score"] = r.Verbose
		}
		for k, v := range r.Extra {
			obj[k] = v
		}
		if err := enc.Encode(obj); err != nil {
			return err
		}
	}
	return nil
}

// printPaired runs and prints the paired bootstrap test. Either p-value is
// symmetric in the two systems, so it holds for lower-is-better TER as it
// is; only the reading of the scores differs, which the output states.
func printPaired(w io.Writer, f *evalFlags, ms []namedMetric, base, hyps []string, refs [][]string) error {
	var results []metrics.PairedResult
	var lower []bool
	seed := f.seed
	method, _ := metrics.ParsePValueMethod(f.pValue) // checked in runEval
	for _, nm := range ms {
		r, err := metrics.PairedBootstrap(nm.m, base, hyps, refs, metrics.BootstrapOptions{Samples: f.bsSamples, Seed: &seed, PValue: method})
		if err != nil {
			return fmt.Errorf("eval: %s: %w", nm.m.Name(), err)
		}
		results = append(results, r)
		lower = append(lower, lowerIsBetter(nm.m))
	}
	if f.jsonOut {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for i, r := range results {
			if err := enc.Encode(map[string]any{"name": r.Metric, "score": r.System.Score, "signature": r.Signature,
				"p_value": r.PValue, "test": r.Test(), "p_value_method": r.Method, "baseline": r.Baseline, "system": r.System,
				"difference": r.Diff, "samples": r.Samples, "seed": r.Seed,
				"higher_is_better": !lower[i]}); err != nil {
				return err
			}
		}
		return nil
	}
	fmt.Fprintf(w, "Test: %s, seed %d; baseline %s, system %s\n\n",
		method.Describe(results[0].Samples), f.seed, f.baseline, displayName(f.hyp))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tbaseline (μ ± 95% CI)\tsystem (μ ± 95% CI)\tsystem − baseline (95% CI)\tp-value")
	for _, r := range results {
		star := ""
		if r.PValue < 0.05 {
			star = " *"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.4f%s\n", r.Metric, fmtEstimate(r.Baseline, f.width),
			fmtEstimate(r.System, f.width), fmtDiff(r.Diff, f.width), r.PValue, star)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	sigs := make([][2]string, len(results))
	for i, r := range results {
		sigs[i] = [2]string{r.Metric, r.Signature}
	}
	if err := printSignatures(w, sigs); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n* p < 0.05: the system differs from the baseline (%s).\n", pValueNote(method))
	if slices.Contains(lower, true) {
		fmt.Fprintln(w, "TER is an error rate: lower is better. The p-value does not depend on which way is better.")
	}
	return nil
}

// pValueNote says how the p-value was computed, for the footnote.
func pValueNote(m metrics.PValueMethod) string {
	if m == metrics.SacreBLEU {
		return "sacreBLEU 2.x paired_bs p-value"
	}
	return "two-sided p-value: twice the share of resamples whose difference is zero or of the other sign"
}

// fmtDiff writes a difference with its interval's bounds, which need not
// be symmetric around it: "+1.23 (+0.10 to +2.41)".
func fmtDiff(e metrics.Estimate, width int) string {
	return fmt.Sprintf("%+.*f (%+.*f to %+.*f)", width, e.Score, width, e.Lower, width, e.Upper)
}

func fmtEstimate(e metrics.Estimate, width int) string {
	return fmt.Sprintf("%.*f (%.*f ± %.*f)", width, e.Score, width, e.Mean, width, e.CI)
}
