package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/strata-nmt/strata/analysis"
	"github.com/strata-nmt/strata/metrics"
)

func evalMatrixSeedsCmd() *cobra.Command {
	var baseName, sysName, lidModel, pValue string
	var seeds []string
	var samples, minSig int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "seeds --baseline-name NAME --system-name NAME --seed BASE.json,SYSTEM.json --seed ... [--lid-model FILE]",
		Short: "Compare two systems trained at several seeds: mean ± sd, and each averaged contrast's verdict over seeds",
		Long: `Each --seed gives the baseline's and the system's matrix.json of one seed
(seeds are numbered in the order given; at least 2, all evaluated on the
same test set and directions). Prints each system's mean and sample
standard deviation over seeds of the zero-shot BLEU, chrF and off-target
rate and the supervised BLEU (with --lid-model also the off-target rate
over the lines whose reference is identified as the target, and the
references' own off-target rate: the identifier's error), then, per
seed, the paired bootstrap of the
difference of the zero-shot and supervised BLEU averages (and of the
zero-shot off-target rate with --lid-model) as 'eval-matrix table
--baseline' computes it. A contrast is confirmed when its difference has
the same sign on every seed and p < 0.05 on at least --min-significant
seeds, and the verdict says whether the system is better or worse (for
the off-target rate, lower is better); otherwise it is not confirmed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if baseName == "" || sysName == "" {
				return fmt.Errorf("eval-matrix seeds: --baseline-name and --system-name are required")
			}
			if baseName == sysName {
				return fmt.Errorf("eval-matrix seeds: --baseline-name and --system-name are both %q: name the two systems apart", baseName)
			}
			if len(seeds) < 2 {
				return fmt.Errorf("eval-matrix seeds: %d --seed given: a comparison over seeds needs at least 2", len(seeds))
			}
			method, err := metrics.ParsePValueMethod(pValue)
			if err != nil {
				return fmt.Errorf("--p-value: %w", err)
			}
			det, err := tableIdentifier(lidModel)
			if err != nil {
				return err
			}
			opt := metrics.BootstrapOptions{Samples: samples, PValue: method}
			runs, err := seedRuns(seeds, baseName, sysName, opt, det)
			if err != nil {
				return err
			}
			st, err := analysis.CompareSeeds(baseName, sysName, runs, minSig)
			if err != nil {
				return err
			}
			if asJSON {
				return st.WriteJSON(cmd.OutOrStdout())
			}
			return st.WriteMarkdown(cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&baseName, "baseline-name", "", "the baseline system's name in the tables")
	cmd.Flags().StringVar(&sysName, "system-name", "", "the system's name in the tables")
	cmd.Flags().StringArrayVar(&seeds, "seed", nil, "BASE_MATRIX.json,SYSTEM_MATRIX.json of one seed (repeat, at least twice)")
	cmd.Flags().IntVar(&minSig, "min-significant", analysis.DefaultMinSignificant, "seeds with p < 0.05 a contrast needs to be confirmed (besides the same sign on every seed)")
	cmd.Flags().IntVar(&samples, "bootstrap-samples", metrics.DefaultBootstrapSamples, "paired bootstrap resamples")
	cmd.Flags().StringVar(&pValue, "p-value", "two-sided", "paired bootstrap p-value: two-sided, or sacrebleu (sacreBLEU 2.x's paired_bs definition)")
	cmd.Flags().StringVar(&lidModel, "lid-model", "", "the fastText language-ID model eval-matrix used: tests the off-target rates too")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the comparison as JSON instead of Markdown")
	return cmd
}

// seedRuns reads every --seed pair and tests its system against its
// baseline, as addSignificance does for 'eval-matrix table --baseline'.
func seedRuns(specs []string, baseName, sysName string, opt metrics.BootstrapOptions, det analysis.Identifier) ([]analysis.SeedRun, error) {
	var runs []analysis.SeedRun
	for i, spec := range specs {
		bp, sp, ok := strings.Cut(spec, ",")
		if !ok || bp == "" || sp == "" || strings.Contains(sp, ",") {
			return nil, fmt.Errorf("--seed %q: want BASE_MATRIX.json,SYSTEM_MATRIX.json", spec)
		}
		rows, paths, err := readSummaryRows([]string{baseName + "=" + bp, sysName + "=" + sp})
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", i+1, err)
		}
		if det != nil {
			if err := addReferenceLID(rows, paths, det); err != nil {
				return nil, fmt.Errorf("seed %d: %w", i+1, err)
			}
		}
		if err := addSignificance(rows, paths, baseName, opt, det); err != nil {
			return nil, fmt.Errorf("seed %d: %w", i+1, err)
		}
		runs = append(runs, analysis.SeedRun{BaselineFile: bp, SystemFile: sp,
			Baseline: rows[0].Result, System: rows[1].Result, Sig: rows[1].Sig})
	}
	return runs, nil
}
