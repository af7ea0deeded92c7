package langid

import (
	"slices"
	"strings"

	"github.com/abadojack/whatlanggo"
)

// Among returns the predictions of d for line restricted to the languages
// langs (codes as Prediction.Lang gives them), most probable first, with
// their probabilities as d gives them (not renormalised over langs). A
// caller that can only use some languages (a translation model's sources)
// thus picks the most probable of those, not the detector's overall best.
func Among(d Detector, line string, langs []string) []Prediction {
	if f, ok := d.(*Fallback); ok {
		return f.among(line, langs)
	}
	var out []Prediction
	for _, p := range d.Predict(line, -1, 0) {
		if slices.Contains(langs, p.Lang()) {
			out = append(out, p)
		}
	}
	return out
}

// among is whatlanggo restricted to langs (its whitelist): it gives one
// answer, so the restriction has to be made before it chooses.
func (f *Fallback) among(line string, langs []string) []Prediction {
	white := map[whatlanggo.Lang]bool{}
	for l := whatlanggo.Lang(0); l <= whatlanggo.Zul; l++ {
		if slices.Contains(langs, l.Iso6391()) || slices.Contains(langs, l.Iso6393()) {
			white[l] = true
		}
	}
	if len(white) == 0 {
		return nil
	}
	info := whatlanggo.DetectWithOptions(strings.ToValidUTF8(line, "\uFFFD"), whatlanggo.Options{Whitelist: white})
	if !white[info.Lang] || info.Script == nil {
		return nil
	}
	code := info.Lang.Iso6391()
	if !slices.Contains(langs, code) {
		code = info.Lang.Iso6393()
	}
	return []Prediction{{Label: labelPrefix + code, Prob: float32(info.Confidence)}}
}
