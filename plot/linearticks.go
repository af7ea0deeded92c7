package plot

import (
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"
)

// linearTicks labels a linear axis at round values (1, 2 or 5 times a
// power of ten apart, three to eight labels) with no more decimals than the
// step needs, and puts unlabelled minor ticks between them. gonum's
// DefaultTicks prints every label with the precision of its finest tick,
// so an update axis read "25.00, 125.00, 225.00".
type linearTicks struct{}

func (linearTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return gplot.DefaultTicks{}.Ticks(lo, hi)
	}
	step, minors := roundStep((hi - lo) / 5)
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	var ticks []gplot.Tick
	minor := step / float64(minors)
	for k := math.Ceil(lo/minor - 1e-9); k*minor <= hi+minor*1e-9; k++ {
		v := k * minor
		t := gplot.Tick{Value: v}
		if math.Mod(k, float64(minors)) == 0 {
			if math.Abs(v) < step*1e-9 {
				v = 0 // no "-0" from rounding
			}
			t.Label = strconv.FormatFloat(v, 'f', decimals, 64)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// roundStep picks the step of 1, 2 or 5 times a power of ten nearest to
// raw (by ratio) and says how many minor intervals divide it.
func roundStep(raw float64) (step float64, minors int) {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	best, bestMinors := p, 5
	for _, c := range []struct {
		m      float64
		minors int
	}{{2, 4}, {5, 5}, {10, 5}} {
		if math.Abs(math.Log(c.m*p/raw)) < math.Abs(math.Log(best/raw)) {
			best, bestMinors = c.m*p, c.minors
		}
	}
	return best, bestMinors
}
