package langid

import (
	"strings"

	"github.com/abadojack/whatlanggo"
)

// FallbackName says what the fallback is wherever its output appears.
const FallbackName = "whatlanggo v1.0.1 (pure-Go trigram detector; NOT fastText lid.176, lower accuracy, 84 languages, top-1 only)"

// Fallback is the detector used when no fastText model is available: the
// pure-Go whatlanggo library (script detection, then trigram profiles). It
// is far less accurate than lid.176 on short lines and returns one label;
// its probability is whatlanggo's confidence, not a calibrated probability.
// Labels use the same form as lid.176 ("__label__de": ISO 639-1 where the
// language has such a code, else ISO 639-3) so that callers can treat both
// detectors alike.
type Fallback struct{}

// NewFallback returns the pure-Go fallback detector.
func NewFallback() *Fallback { return &Fallback{} }

// Name describes the fallback.
func (*Fallback) Name() string { return FallbackName }

// Predict returns whatlanggo's best label if its confidence reaches
// threshold; k only matters when 0 labels are wanted (never: k < 1 means
// all, and whatlanggo has one answer).
func (f *Fallback) Predict(line string, _ int, threshold float32) []Prediction {
	info := whatlanggo.Detect(line)
	if info.Lang < 0 || info.Script == nil {
		return nil
	}
	code := info.Lang.Iso6391()
	if code == "" {
		code = info.Lang.Iso6393()
	}
	p := Prediction{Label: labelPrefix + code, Prob: float32(info.Confidence)}
	if p.Prob < threshold {
		return nil
	}
	return []Prediction{p}
}

// PredictBytes implements LinePredictor; the newline flag is irrelevant to
// whatlanggo.
func (f *Fallback) PredictBytes(line []byte, _ bool, k int, threshold float32) []Prediction {
	return f.Predict(strings.ToValidUTF8(string(line), "\uFFFD"), k, threshold)
}
