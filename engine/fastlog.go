package engine

import "math"

// logNormal is ln(x) for a positive, finite, normal float32 x, in float32
// arithmetic: LogMeanExp takes one logarithm per vocabulary entry per
// decoding step, and math.Log (float64) made it cost more than a member's
// whole LogSoftmax. The method is Cephes' logf (Moshier): x = m·2^e with
// m in [√½, √2), ln m = t - t²/2 + t³·P(t) for t = m - 1 with P of degree
// 8, and e·ln 2 added in two parts (a short high part exact in float32 and
// a correction). TestLogNormal checks the error against math.Log.
func logNormal(x float32) float32 {
	const (
		sqrtHalf = 0.70710678118654752440
		ln2hi    = 0.693359375
		ln2lo    = -2.12194440e-4
	)
	bits := math.Float32bits(x)
	e := float32(int32(bits>>23&0xff) - 126)
	m := math.Float32frombits(bits&0x807fffff | 0x3f000000) // in [0.5, 1)
	if m < sqrtHalf {
		e--
		m = m + m - 1
	} else {
		m--
	}
	z := m * m
	p := ((((((((7.0376836292e-2*m-1.1514610310e-1)*m+1.1676998740e-1)*m-1.2420140846e-1)*m+
		1.4249322787e-1)*m-1.6668057665e-1)*m+2.0000714765e-1)*m-2.4999993993e-1)*m +
		3.3333331174e-1) * m * z
	p += ln2lo * e
	p -= 0.5 * z
	return m + p + ln2hi*e
}
