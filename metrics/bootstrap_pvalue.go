package metrics

import (
	"fmt"
	"math"
)

// PValueMethod says how a paired bootstrap turns its resampled differences
// into a p-value.
type PValueMethod int

const (
	// TwoSided is the default: p = min(1, 2(1+c)/(N+1)) for N resamples,
	// c of which give a difference that is zero or of the other sign than
	// the real one. It is never 0; a real difference of exactly zero has
	// no side and gets p = 1.
	TwoSided PValueMethod = iota
	// SacreBLEU is sacreBLEU 2.x's paired_bs p-value: the share of
	// resampled absolute differences, centred on their mean, that exceed
	// the real absolute difference, (c+1)/(N+1). It measures how far the
	// resamples spread around their own mean, not how often they cross
	// zero, so it comes out much smaller than a two-sided test's.
	SacreBLEU
)

// PValueNames are the names ParsePValueMethod accepts, in order of the
// constants.
var PValueNames = []string{"two-sided", "sacrebleu"}

// ParsePValueMethod reads a method's name ("two-sided" or "sacrebleu").
func ParsePValueMethod(name string) (PValueMethod, error) {
	for i, n := range PValueNames {
		if name == n {
			return PValueMethod(i), nil
		}
	}
	return 0, fmt.Errorf("p-value %q: want two-sided or sacrebleu", name)
}

// String is the method's name as ParsePValueMethod reads it.
func (m PValueMethod) String() string {
	if int(m) < len(PValueNames) && m >= 0 {
		return PValueNames[m]
	}
	return fmt.Sprintf("PValueMethod(%d)", int(m))
}

// Describe names the test for a table's caption, e.g. "two-sided paired
// bootstrap, 1000 resamples".
func (m PValueMethod) Describe(samples int) string {
	if m == SacreBLEU {
		return fmt.Sprintf("paired bootstrap with sacreBLEU's paired_bs p-value, %d resamples", samples)
	}
	return fmt.Sprintf("two-sided paired bootstrap, %d resamples", samples)
}

// MarshalText writes the method's name (JSON outputs name the test).
func (m PValueMethod) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a name written by MarshalText.
func (m *PValueMethod) UnmarshalText(b []byte) error {
	v, err := ParsePValueMethod(string(b))
	*m = v
	return err
}

// PairedPValue is the p-value of a real difference (system minus
// baseline) given the same difference on every resample.
func PairedPValue(m PValueMethod, real float64, resampled []float64) float64 {
	if m == SacreBLEU {
		return sacreBLEUPValue(math.Abs(real), resampled)
	}
	return twoSidedPValue(real, resampled)
}

// twoSidedPValue counts the resamples that do not share the real
// difference's sign (zero counts against it) and doubles the share.
func twoSidedPValue(real float64, resampled []float64) float64 {
	n := len(resampled)
	c := n // a real difference of zero: no side, every resample counts
	if real != 0 {
		c = 0
		for _, d := range resampled {
			if d == 0 || (d > 0) != (real > 0) {
				c++
			}
		}
	}
	return math.Min(1, 2*float64(1+c)/float64(n+1))
}

// sacreBLEUPValue is sacreBLEU's paired_bs p-value for the absolute real
// difference.
func sacreBLEUPValue(realAbs float64, resampled []float64) float64 {
	abs := make([]float64, len(resampled))
	for i, d := range resampled {
		abs[i] = math.Abs(d)
	}
	mu := mean(abs)
	c := 0
	for _, d := range abs {
		if d-mu > realAbs {
			c++
		}
	}
	return float64(c+1) / float64(len(abs)+1)
}
