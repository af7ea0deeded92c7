package langid

import (
	"math"
	"strconv"
)

// AppendProb appends p as `fasttext predict-prob` prints it: C++ iostream
// output of a float at the default precision 6, i.e. printf("%g") of the
// value widened to double ("0.99991", "1.00001", "2.5e-05").
func AppendProb(dst []byte, p float32) []byte {
	switch f := float64(p); {
	case math.IsNaN(f): // glibc's spelling, not Go's "NaN"
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	return strconv.AppendFloat(dst, float64(p), 'g', 6, 64)
}

// AppendFastText appends one output line of `fasttext predict` (withProb
// false) or `fasttext predict-prob` (withProb true): the labels, each
// followed by its probability, separated by single spaces, then a newline.
// A line without predictions is an empty line, as in fastText.
func AppendFastText(dst []byte, preds []Prediction, withProb bool) []byte {
	for i, p := range preds {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, p.Label...)
		if withProb {
			dst = append(dst, ' ')
			dst = AppendProb(dst, p.Prob)
		}
	}
	return append(dst, '\n')
}
