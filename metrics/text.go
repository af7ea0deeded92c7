package metrics

import (
	"math"
	"strconv"
	"unicode/utf8"
)

func utf8Valid(s string) bool { return utf8.ValidString(s) }

func exp(x float64) float64 { return math.Exp(x) }

func fmtF(x float64, prec int) string { return strconv.FormatFloat(x, 'f', prec, 64) }
