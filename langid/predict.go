package langid

import (
	"strings"
	"sync"
)

// Prediction is one label with its probability.
type Prediction struct {
	// Label is the label as stored in the model, e.g. "__label__de".
	Label string
	// Prob is the probability exactly as fastText's predict-prob prints it:
	// exp(log(p + 1e-5)), so it can slightly exceed 1.
	Prob float32
}

// Lang returns the label without fastText's "__label__" prefix, e.g. "de".
func (p Prediction) Lang() string { return strings.TrimPrefix(p.Label, labelPrefix) }

// Detector identifies the language of a line. Both the fastText Model and
// the pure-Go Fallback satisfy it.
type Detector interface {
	// Predict returns up to k labels with probability >= threshold, most
	// probable first; k < 1 means all labels.
	Predict(line string, k int, threshold float32) []Prediction
	// LinePredictor: prediction of a raw line of a file (see Stream).
	LinePredictor
	// Name describes the detector for logs and output headers.
	Name() string
}

// Model is a loaded supervised fastText model. It is safe for concurrent
// use.
type Model struct {
	name      string
	version   int32
	args      args
	dict      *dictionary
	input     matrix
	output    matrix
	quantized bool
	qout      bool
	tree      *hsTree
	pool      sync.Pool // of *scratch
}

// scratch holds per-goroutine buffers so that prediction does not allocate.
type scratch struct {
	ids, hashes    []int32
	buf            []byte
	hidden, output []float32
	heap           []scored
}

func (m *Model) newScratch() any {
	return &scratch{
		hidden: make([]float32, m.args.dim),
		output: make([]float32, m.dict.nlabels),
	}
}

// Name describes the model.
func (m *Model) Name() string { return "fastText " + m.name }

// Labels returns the model's labels (with prefix) in dictionary order.
func (m *Model) Labels() []string {
	return append([]string(nil), m.dict.words[m.dict.nwords:]...)
}

// Info summarises the model's configuration.
func (m *Model) Info() map[string]any {
	return map[string]any{
		"version": m.version, "dim": m.args.dim, "words": m.dict.nwords,
		"labels": m.dict.nlabels, "bucket": m.args.bucket, "minn": m.args.minn,
		"maxn": m.args.maxn, "wordNgrams": m.args.wordNgrams,
		"loss":      map[int32]string{lossHS: "hs", lossNS: "ns", lossSoftmax: "softmax", lossOVA: "ova"}[m.args.loss],
		"quantized": m.quantized, "qout": m.qout, "pruned": m.dict.pruneSize >= 0,
	}
}

// Predict returns up to k labels whose probability is at least threshold,
// most probable first, as `fasttext predict-prob` computes them for this
// line followed by a newline. k < 1 means all labels (fastText's -1).
// Newlines inside line are treated as spaces rather than line breaks.
func (m *Model) Predict(line string, k int, threshold float32) []Prediction {
	return m.PredictBytes([]byte(line), true, k, threshold)
}

// PredictBytes is Predict on raw bytes. eol says whether the line was
// terminated by a newline in its file: fastText adds the end-of-sentence
// token "</s>" only then, which changes the probabilities slightly.
func (m *Model) PredictBytes(line []byte, eol bool, k int, threshold float32) []Prediction {
	s := m.pool.Get().(*scratch)
	defer m.pool.Put(s)
	if !m.score(s, line, eol, k, threshold) {
		return nil
	}
	out := make([]Prediction, len(s.heap))
	for i, h := range s.heap {
		out[i] = Prediction{Label: m.dict.label(h.idx), Prob: expf(h.score)}
	}
	return out
}

// score leaves the best labels of line in s.heap, best first. It reports
// false when the line yields no input rows (fastText then predicts
// nothing and prints an empty line).
func (m *Model) score(s *scratch, line []byte, eol bool, k int, threshold float32) bool {
	ids := m.dict.features(s, line, eol)
	if len(ids) == 0 {
		s.heap = s.heap[:0]
		return false
	}
	if k < 1 {
		k = int(m.output.rows())
	}
	h := s.hidden
	clear(h)
	for _, id := range ids {
		m.input.addRowTo(h, id)
	}
	inv := float32(1.0 / float64(len(ids)))
	for i := range h {
		h[i] *= inv
	}
	m.predictOutput(s, k, threshold)
	return true
}
