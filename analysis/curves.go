package analysis

import (
	"github.com/strata-nmt/strata/plot"
	"github.com/strata-nmt/strata/rundir"
)

// LossCurves returns a run's training loss (NLL, the mean over windows of
// smooth updates) and its validation NLL, both in bits per target token,
// over the records up to maxUpdate (0: all): runs trained to different
// lengths compare over the updates they share, as a study compares its
// systems at its budget.
func LossCurves(recs []rundir.Record, smooth, maxUpdate int) (train, valid plot.Series) {
	for _, r := range recs {
		if maxUpdate > 0 && r.Update > maxUpdate {
			continue
		}
		switch r.Type {
		case "train":
			train.X, train.Y = append(train.X, float64(r.Update)), append(train.Y, r.NLL)
		case "valid":
			valid.X, valid.Y = append(valid.X, float64(r.Update)), append(valid.Y, r.Loss)
		}
	}
	train.X, train.Y = WindowMeans(train.X, train.Y, smooth)
	return train, valid
}
