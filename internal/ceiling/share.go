package ceiling

import "fmt"

// Share is rate as a share of ceiling, both in the same unit. It refuses
// what cannot be a share: a ceiling unknown (0) or a rate above it, which
// means that the work counted or the ceiling measured is wrong; a
// benchmark prints the error instead of the figure.
func Share(rate, ceiling float64) (float64, error) {
	switch {
	case ceiling <= 0:
		return 0, fmt.Errorf("no ceiling measured on this CPU (no assembly peak loop)")
	case rate > ceiling:
		return 0, fmt.Errorf("%.4g is %.0f%% of the ceiling %.4g: above 100%%, so the operation count or the ceiling is wrong",
			rate, 100*rate/ceiling, ceiling)
	}
	return rate / ceiling, nil
}
