package plot

import (
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"
)

// logTicks labels a log axis densely enough to read values off it: gonum's
// LogTicks labels only powers of ten, which leaves a loss curve spanning
// 2..10 with a single label. Within about one decade every integer
// mantissa is labelled, within a few decades 1, 2 and 5, beyond that powers
// of ten, with the other integer mantissas as unlabelled minor ticks.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []gplot.Tick {
	if !(min > 0 && max > min) {
		return nil
	}
	labelled := map[int]bool{1: true}
	switch decades := math.Log10(max / min); {
	case decades <= 1.2:
		for m := 2; m <= 9; m++ {
			labelled[m] = true
		}
	case decades <= 3:
		labelled[2], labelled[5] = true, true
	}
	var ticks []gplot.Tick
	for exp := math.Floor(math.Log10(min)); math.Pow(10, exp) <= max; exp++ {
		base := math.Pow(10, exp)
		for m := 1; m <= 9; m++ {
			v := float64(m) * base
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			t := gplot.Tick{Value: v}
			if labelled[m] {
				t.Label = strconv.FormatFloat(v, 'g', 4, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
