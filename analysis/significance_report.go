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
		bw.printf("\n### %s against %s: paired bootstrap per direction\n\n", s.System, s.Baseline)
		bw.printf("%s (`%s`).\n\n", s.countSentence(), s.Signature)
		bw.printf("| direction | kind | %s BLEU | %s BLEU (95%% CI) | Δ | p | at p < %.2f |\n|---|---|---:|---:|---:|---:|---|\n",
			s.Baseline, s.System, SignificanceLevel)
		for _, t := range s.Tests {
			bw.printf("| %s | %s | %.2f | %.2f (± %.2f) | %+.2f | %.4f | %s |\n", t.Direction, t.Kind, t.Baseline, t.System, t.CI,
				t.System-t.Baseline, t.PValue, t.Verdict())
		}
	}
	return bw.err
}

func (s *Significance) countSentence() string {
	z, v := s.ZeroShot, s.Supervised
	return fmt.Sprintf("Zero-shot: %s significantly better than %s (p < %.2f) in %d of %d directions, significantly worse in %d, "+
		"not significant in %d; supervised: better in %d of %d, worse in %d",
		s.System, s.Baseline, SignificanceLevel, z.Better, z.Directions, z.Worse, z.Directions-z.Better-z.Worse,
		v.Better, v.Directions, v.Worse)
}

// summaryCell is the significance column of SummaryMarkdown.
func (s *Significance) summaryCell() string {
	z := s.ZeroShot
	return fmt.Sprintf("%d↑ %d↓ %d= of %d", z.Better, z.Worse, z.Directions-z.Better-z.Worse, z.Directions)
}
