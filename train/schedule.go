package train

import (
	"fmt"
	"math"
)

// Schedule gives the learning rate after n updates, i.e. the rate the
// (n+1)-th update uses. Every schedule is a function of n alone, so a
// resumed run continues on the same curve.
type Schedule interface {
	LR(n int) float64
}

// Names of the schedules (--lr-scheduler), as fairseq names them.
const (
	SchedInverseSqrt = "inverse_sqrt"
	SchedCosine      = "cosine"
	SchedPolynomial  = "polynomial_decay"
	SchedFixed       = "fixed"
)

// Schedules lists the schedule names NewSchedule accepts.
var Schedules = []string{SchedInverseSqrt, SchedCosine, SchedPolynomial, SchedFixed}

// NewSchedule builds a schedule that warms up linearly from warmupInit to
// peak over warmup updates, then follows name: inverse_sqrt decays as
// peak·sqrt(warmup/n); cosine falls on a half cosine from peak to minLR at
// update total; polynomial_decay falls linearly (power 1) from peak to
// minLR at update total; fixed stays at peak. cosine and polynomial_decay
// need total (the run's max_update) beyond the warm-up.
func NewSchedule(name string, peak, warmupInit float64, warmup, total int, minLR float64) (Schedule, error) {
	w := warmupPhase{peak: peak, init: warmupInit, n: warmup}
	switch name {
	case SchedInverseSqrt, "":
		return InverseSqrt{Peak: peak, WarmupInit: warmupInit, Warmup: warmup}, nil
	case SchedFixed:
		return decayed{w, func(int) float64 { return peak }}, nil
	case SchedCosine, SchedPolynomial:
		if total <= warmup {
			return nil, fmt.Errorf("train: the %s schedule decays until max_update, which must exceed the %d warm-up updates (got %d)", name, warmup, total)
		}
		if minLR < 0 || minLR > peak {
			return nil, fmt.Errorf("train: min_lr %g must lie in [0, lr=%g]", minLR, peak)
		}
		span := float64(total - warmup)
		frac := func(n int) float64 { return math.Min(float64(n-warmup)/span, 1) }
		if name == SchedCosine {
			return decayed{w, func(n int) float64 { return minLR + 0.5*(peak-minLR)*(1+math.Cos(math.Pi*frac(n))) }}, nil
		}
		return decayed{w, func(n int) float64 { return minLR + (peak-minLR)*(1-frac(n)) }}, nil
	}
	return nil, fmt.Errorf("train: unknown lr_scheduler %q (one of %v)", name, Schedules)
}

// warmupPhase is the linear rise every schedule starts with. As in
// fairseq, the first update (n = 0) runs at init (0 by default).
type warmupPhase struct {
	peak, init float64
	n          int
}

func (w warmupPhase) lr(n int) (float64, bool) {
	if w.n > 0 && n < w.n {
		return w.init + float64(n)*(w.peak-w.init)/float64(w.n), true
	}
	return 0, false
}

// decayed is a warm-up followed by after(n).
type decayed struct {
	warm  warmupPhase
	after func(n int) float64
}

func (d decayed) LR(n int) float64 {
	if lr, ok := d.warm.lr(n); ok {
		return lr
	}
	return d.after(n)
}

// InverseSqrt is fairseq's inverse_sqrt schedule: the learning rate rises
// linearly from WarmupInit to Peak over Warmup updates, then decays as
// Peak·sqrt(Warmup/update).
type InverseSqrt struct {
	Peak, WarmupInit float64
	Warmup           int
}

// LR implements Schedule.
func (s InverseSqrt) LR(n int) float64 {
	if lr, ok := (warmupPhase{peak: s.Peak, init: s.WarmupInit, n: s.Warmup}).lr(n); ok {
		return lr
	}
	w := math.Max(float64(s.Warmup), 1)
	return s.Peak * math.Sqrt(w) / math.Sqrt(float64(max(n, 1)))
}
