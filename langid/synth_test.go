package langid

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"strings"
)

// synth describes a small dense supervised fastText model written by the
// tests in fastText's binary layout, so that the reader, every loss and the
// hashing paths can be checked without shipping a model file.
type synth struct {
	version                                   int32
	dim, wordNgrams, loss, bucket, minn, maxn int32
	words                                     []string // words[0] is "</s>"
	labels                                    []string
	labelCounts                               []int64
	input, output                             []float32
}

// syllables mix ASCII with 2- and 3-byte UTF-8 so that character n-grams
// cross multi-byte boundaries.
var syllables = []string{"ka", "lo", "mé", "ži", "ть", "中", "文", "ab", "øy", "ß", "q", "ün", "ра", "x", "語"}

func randWord(r *rand.Rand) string {
	var b strings.Builder
	for n := 1 + r.Intn(4); n > 0; n-- {
		b.WriteString(syllables[r.Intn(len(syllables))])
	}
	return b.String()
}

// newSynth builds a model with random weights; scale sets how peaked the
// output distribution is.
func newSynth(seed int64, loss, nlabels, wordNgrams, minn, maxn int32) *synth {
	r := rand.New(rand.NewSource(seed))
	s := &synth{version: 12, dim: 10, wordNgrams: wordNgrams, loss: loss, bucket: 3000, minn: minn, maxn: maxn}
	seen := map[string]bool{eos: true}
	s.words = []string{eos}
	for len(s.words) < 200 {
		if w := randWord(r); !seen[w] {
			seen[w] = true
			s.words = append(s.words, w)
		}
	}
	for i := range nlabels {
		s.labels = append(s.labels, fmt.Sprintf("%sL%d", labelPrefix, i))
		// Decreasing counts with runs of ties, as after fastText's sort.
		s.labelCounts = append(s.labelCounts, int64(1000-10*(i/3)))
	}
	rows := int(int32(len(s.words)) + s.bucket)
	s.input = randFloats(r, rows*int(s.dim), 1)
	s.output = randFloats(r, int(nlabels)*int(s.dim), 2)
	return s
}

func randFloats(r *rand.Rand, n int, scale float64) []float32 {
	f := make([]float32, n)
	for i := range f {
		f[i] = float32((r.Float64()*2 - 1) * scale)
	}
	return f
}

// encode writes the model in fastText's .bin layout.
func (s *synth) encode() []byte {
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	w(int32(fileMagic))
	w(s.version)
	for _, v := range []int32{s.dim, 5, 5, 1, 5, s.wordNgrams, s.loss, modelSup, s.bucket, s.minn, s.maxn, 100} {
		w(v)
	}
	w(1e-4)
	w(int32(len(s.words) + len(s.labels)))
	w(int32(len(s.words)))
	w(int32(len(s.labels)))
	w(int64(12345))
	w(int64(-1)) // not pruned
	for i, word := range s.words {
		b.WriteString(word)
		b.WriteByte(0)
		w(int64(100000 - i))
		b.WriteByte(typeWord)
	}
	for i, l := range s.labels {
		b.WriteString(l)
		b.WriteByte(0)
		w(s.labelCounts[i])
		b.WriteByte(typeLabel)
	}
	b.WriteByte(0) // dense input
	w(int64(len(s.input)) / int64(s.dim))
	w(int64(s.dim))
	w(s.input)
	b.WriteByte(0) // dense output
	w(int64(len(s.output)) / int64(s.dim))
	w(int64(s.dim))
	w(s.output)
	return b.Bytes()
}

// randLines makes test input: vocabulary and unknown words, label tokens,
// every separator fastText knows, blank and whitespace-only lines, and a
// last line without newline.
func randLines(seed int64, s *synth, n int) []byte {
	r := rand.New(rand.NewSource(seed))
	seps := []string{" ", " ", " ", "  ", "\t", "\r", "\v", "\f", "\x00"}
	var b bytes.Buffer
	for i := range n {
		switch i % 17 {
		case 5:
			b.WriteString("\n")
			continue
		case 9:
			b.WriteString(" \t \n")
			continue
		}
		for j := 1 + r.Intn(12); j > 0; j-- {
			switch x := r.Intn(10); {
			case x < 5:
				b.WriteString(s.words[1+r.Intn(len(s.words)-1)])
			case x < 9:
				b.WriteString(randWord(r))
			default:
				b.WriteString(labelPrefix + "zz")
			}
			b.WriteString(seps[r.Intn(len(seps))])
		}
		b.WriteString("\n")
	}
	b.WriteString("trailing " + s.words[3] + " no newline")
	return b.Bytes()
}

// parseFastText reads predict-prob output into labels and probabilities.
func parseFastText(out []byte) ([][]Prediction, error) {
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	res := make([][]Prediction, len(lines))
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f)%2 != 0 {
			return nil, fmt.Errorf("line %d: odd field count in %q", i+1, l)
		}
		for j := 0; j < len(f); j += 2 {
			var p float64
			if _, err := fmt.Sscan(f[j+1], &p); err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			res[i] = append(res[i], Prediction{Label: f[j], Prob: float32(p)})
		}
	}
	return res, nil
}

// comparePredictions checks that labels agree on every line and
// probabilities to tol; it returns a description of the first few
// disagreements and the number of lines that differ at all in bytes.
func comparePredictions(want, got []byte, tol float64) (problems []string, byteDiffs int) {
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	if len(wl) != len(gl) {
		return []string{fmt.Sprintf("%d output lines, fastText has %d", len(gl), len(wl))}, 0
	}
	for i := range wl {
		if wl[i] != gl[i] {
			byteDiffs++
		}
	}
	wp, err1 := parseFastText(want)
	gp, err2 := parseFastText(got)
	if err1 != nil || err2 != nil {
		return []string{fmt.Sprint("parse: ", err1, err2)}, byteDiffs
	}
	for i := range wp {
		if len(wp[i]) != len(gp[i]) {
			problems = append(problems, fmt.Sprintf("line %d: %d labels, fastText has %d", i+1, len(gp[i]), len(wp[i])))
			continue
		}
		for j := range wp[i] {
			w, g := wp[i][j], gp[i][j]
			if w.Label != g.Label || math.Abs(float64(w.Prob-g.Prob)) > tol {
				problems = append(problems, fmt.Sprintf("line %d rank %d: got %s %g, fastText %s %g", i+1, j+1, g.Label, g.Prob, w.Label, w.Prob))
				break
			}
		}
		if len(problems) > 10 {
			break
		}
	}
	return problems, byteDiffs
}
