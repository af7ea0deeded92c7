package langid

import (
	"testing"
)

// tinySynth is a dense model small enough for the fuzzer to mutate quickly.
func tinySynth(loss, wordNgrams, minn, maxn int32) []byte {
	s := newSynth(7, loss, 3, wordNgrams, minn, maxn)
	s.dim, s.bucket = 2, 16
	s.words = s.words[:6]
	s.input = s.input[:int(int32(len(s.words))+s.bucket)*int(s.dim)]
	s.output = s.output[:len(s.labels)*int(s.dim)]
	return s.encode()
}

// FuzzParse: any bytes give a model or an error naming the problem; a model
// that loads predicts any line without panicking (Parse promises that every
// row the dictionary can produce exists). Seeds: tiny synthetic dense
// models of every loss, and in testdata/fuzz/FuzzParse a dense .bin and a
// pruned, quantised (qnorm) .ftz trained by fastText 0.9.2 on 300 lines.
func FuzzParse(f *testing.F) {
	f.Add(tinySynth(lossSoftmax, 2, 2, 3))
	f.Add(tinySynth(lossHS, 1, 0, 0))
	f.Add(tinySynth(lossOVA, 3, 1, 4))
	f.Add(tinySynth(lossNS, 1, 3, 3))
	lines := []string{"", "ka lo mé", "中文 語 ß ün\t\v x", "\x00\xff\xfe invalid", "the cat sat on the mat", "__label__L1 le chat"}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse("fuzz.bin", b)
		if err != nil {
			return
		}
		_ = m.Labels()
		_ = m.Info()
		for _, l := range lines {
			m.Predict(l, 2, 0)
			m.PredictBytes([]byte(l), true, -1, 0)
		}
		for _, w := range m.dict.words {
			m.Predict(w+" "+w, 1, 0)
		}
	})
}
