package analysis

import (
	"fmt"
	"io"
)

// SignificanceMarkdown writes, for each comparison, the counts over
// zero-shot and supervised directions and the per-direction table.
func SignificanceMarkdown(w io.Writer, sigs []*Significance) error {
	bw := &errWriter{w: w}
	for _, s := range sigs {
		bw.printf("\n### %s against %s: %s per direction\n\n", s.System, s.Baseline, s.testName())
		bw.printf("%s (`%s`).\n\n", s.countSentence(), s.Signature)
		for _, a := range []struct {
			kind string
			t    *AverageTest
		}{{ZeroShot, s.ZeroShotAverage}, {Supervised, s.SupervisedAverage}} {
			if a.t != nil {
				bw.printf("%s\n\n", a.t.sentence(a.kind))
			}
		}
		bw.printf("| direction | kind | %s BLEU | %s BLEU (95%% CI) | Δ | p | at p < %.2f |\n|---|---|---:|---:|---:|---:|---|\n",
			s.Baseline, s.System, SignificanceLevel)
		for _, t := range s.Tests {
			bw.printf("| %s | %s | %.2f | %.2f (± %.2f) | %+.2f | %.4f | %s |\n", t.Direction, t.Kind, t.Baseline, t.System, t.CI,
				t.System-t.Baseline, t.PValue, t.Verdict())
		}
	}
	return bw.err
}

// testName is the test as recorded, or the two-sided one for results
// that did not record it.
func (s *Significance) testName() string {
	if s.Test != "" {
		return s.Test
	}
	return s.Method.Describe(s.Samples)
}

func (s *Significance) countSentence() string {
	z, v := s.ZeroShot, s.Supervised
	out := fmt.Sprintf("Zero-shot: %s significantly better than %s (p < %.2f) in %d of %d directions, significantly worse in %d, "+
		"not significant in %d", s.System, s.Baseline, SignificanceLevel, z.Better, z.Directions, z.Worse, z.Directions-z.Better-z.Worse)
	if v.Directions == 0 { // a test against pivoting has zero-shot directions only
		return out
	}
	return out + fmt.Sprintf("; supervised: better in %d of %d, worse in %d", v.Better, v.Directions, v.Worse)
}

// summaryCell is the significance column of SummaryMarkdown.
func (s *Significance) summaryCell() string {
	z := s.ZeroShot
	return fmt.Sprintf("%d↑ %d↓ %d= of %d", z.Better, z.Worse, z.Directions-z.Better-z.Worse, z.Directions)
}

// sentence states an averaged test: the mean BLEU of both systems, their
// difference with its 95% interval and p-value, and the same for the
// off-target rate (in percentage points) when it was tested.
func (a *AverageTest) sentence(kind string) string {
	d := a.Diff
	out := fmt.Sprintf("Average over the %d %s directions (paired bootstrap resampling every direction's lines within it): "+
		"BLEU %.2f → %.2f, Δ %+.2f (95%% CI %+.2f to %+.2f, p = %.4f)", a.Directions, kind, a.Baseline, a.System, d.Value, d.Lower, d.Upper, d.PValue)
	if a.HasOffTarget {
		o := a.OffTargetDiff
		out += fmt.Sprintf("; off-target %.2f%% → %.2f%%, Δ %+.2f points (95%% CI %+.2f to %+.2f, p = %.4f)",
			100*a.BaselineOffTarget, 100*a.SystemOffTarget, 100*o.Value, 100*o.Lower, 100*o.Upper, o.PValue)
		if a.RefOffTarget != nil {
			out += fmt.Sprintf(" (references off target by the same identifier: %.2f%%)", 100**a.RefOffTarget)
		}
	}
	return out + "."
}
