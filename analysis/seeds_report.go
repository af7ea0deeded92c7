package analysis

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/strata-nmt/strata/metrics"
)

// WriteMarkdown writes the two tables of a comparison over seeds: each
// system's mean ± sd, and each contrast per seed with its verdict, naming
// the test and the rule.
func (s *SeedStudy) WriteMarkdown(w io.Writer) error {
	bw := &errWriter{w: w}
	n := s.Seeds
	bw.printf("Mean ± sample standard deviation over %d seeds.", n)
	if s.ReferenceOffTarget == nil {
		bw.printf("\n\n| system | zero-shot BLEU | zero-shot chrF | zero-shot off-target (%%) | supervised BLEU |\n|---|---:|---:|---:|---:|\n")
		for _, sys := range s.Systems {
			bw.printf("| %s | %s | %s | %s | %s |\n", sys.Name, sys.ZeroShotBLEU.cell(1), sys.ZeroShotCHRF.cell(1),
				sys.ZeroShotOffTarget.cell(100), sys.SupervisedBLEU.cell(1))
		}
	} else {
		s.writeMeansWithReferences(bw)
	}
	bw.printf("\n%s minus %s, tested per seed on the difference of the averages (%s, every direction's lines "+
		"resampled within it; 95%% CI, p). Rule fixed before the runs: a contrast is confirmed when its sign agrees "+
		"on all %d seeds and p < %.2f on at least %d of them; off-target differences are in percentage points, lower is better.\n\n",
		s.System, s.Baseline, s.Test, n, SignificanceLevel, s.MinSignificant)
	bw.printf("| contrast |")
	for i := 0; i < n; i++ {
		bw.printf(" seed %d |", i+1)
	}
	bw.printf(" p < %.2f | verdict |\n|---|", SignificanceLevel)
	for i := 0; i < n; i++ {
		bw.printf("---:|")
	}
	bw.printf("---:|---|\n")
	for _, c := range s.Contrasts {
		scale := 1.0
		if c.LowerIsBetter {
			scale = 100
		}
		bw.printf("| %s |", c.Name)
		for _, d := range c.Seeds {
			bw.printf(" %s |", diffCell(d, scale))
		}
		bw.printf(" %d of %d | %s |\n", c.Significant, n, c.verdictCell(s.System))
	}
	return bw.err
}

// writeMeansWithReferences writes the means with the language
// identifier's error beside the off-target rates: the references' own
// rate as a row, and each system's rate over the lines whose reference
// is identified as the target.
func (s *SeedStudy) writeMeansWithReferences(bw *errWriter) {
	bw.printf(" The references row is the identifier's error: the share of the zero-shot references it assigns " +
		"to another language; \"on-target references\" rates the outputs over the other lines only.\n\n")
	bw.printf("| system | zero-shot BLEU | zero-shot chrF | zero-shot off-target (%%) | off-target, on-target references (%%) | supervised BLEU |\n" +
		"|---|---:|---:|---:|---:|---:|\n")
	for _, sys := range s.Systems {
		bw.printf("| %s | %s | %s | %s | %s | %s |\n", sys.Name, sys.ZeroShotBLEU.cell(1), sys.ZeroShotCHRF.cell(1),
			sys.ZeroShotOffTarget.cell(100), sys.ZeroShotOffTargetOnRef.cell(100), sys.SupervisedBLEU.cell(1))
	}
	bw.printf("| references | – | – | %.2f | – | – |\n", 100**s.ReferenceOffTarget)
}

// WriteJSON writes the comparison as indented JSON (off-target means and
// differences as fractions).
func (s *SeedStudy) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// cell is "mean ± sd" times scale, or "–" where there is no such average.
func (m *MeanSD) cell(scale float64) string {
	if m == nil {
		return "–"
	}
	return fmt.Sprintf("%.2f ± %.2f", scale*m.Mean, scale*m.SD)
}

func diffCell(d metrics.Difference, scale float64) string {
	return fmt.Sprintf("%+.2f (%+.2f to %+.2f), p = %.4f", scale*d.Value, scale*d.Lower, scale*d.Upper, d.PValue)
}

func (c SeedContrast) verdictCell(system string) string {
	switch c.Favours {
	case "system better":
		return fmt.Sprintf("%s (%s better)", c.Verdict, system)
	case "system worse":
		return fmt.Sprintf("%s (%s worse)", c.Verdict, system)
	}
	return c.Verdict
}
