package metrics

import (
	"math"
	"unicode/utf8"
)

func utf8Valid(s string) bool { return utf8.ValidString(s) }

func exp(x float64) float64 { return math.Exp(x) }
