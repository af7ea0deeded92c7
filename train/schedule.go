package train

import "math"

// InverseSqrt is fairseq's inverse_sqrt schedule: the learning rate rises
// linearly from WarmupInit to Peak over Warmup updates, then decays as
// Peak·sqrt(Warmup/update).
type InverseSqrt struct {
	Peak, WarmupInit float64
	Warmup           int
}

// LR returns the learning rate after n updates, i.e. the rate the (n+1)-th
// update uses. As in fairseq, the first update (n = 0) runs at WarmupInit
// (0 by default).
func (s InverseSqrt) LR(n int) float64 {
	if s.Warmup > 0 && n < s.Warmup {
		return s.WarmupInit + float64(n)*(s.Peak-s.WarmupInit)/float64(s.Warmup)
	}
	w := math.Max(float64(s.Warmup), 1)
	return s.Peak * math.Sqrt(w) / math.Sqrt(float64(max(n, 1)))
}
