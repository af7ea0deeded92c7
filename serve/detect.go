package serve

import (
	"cmp"
	"math"
	"net/http"
	"slices"
	"strings"

	"github.com/strata-nmt/strata/langid"
)

// detected is one of LibreTranslate's language detections.
type detected struct {
	// Confidence is the identifier's probability in percent, rounded to a
	// whole number as LibreTranslate rounds its detector's.
	Confidence float64 `json:"confidence"`
	Language   string  `json:"language"`
}

// sourceLanguages are the languages "auto" and /detect choose among: the
// languages the model was trained to read, or all of its languages when
// that is unknown (an identifier's overall best, say Norwegian for a short
// English line, is of no use to a model that does not read it).
func (s *Server) sourceLanguages() []string {
	if !s.b.Directions.Known() {
		return s.b.Vocab.Languages()
	}
	var out []string
	for _, l := range s.b.Vocab.Languages() {
		if slices.Contains(s.b.Directions.Sources(), l) {
			out = append(out, l)
		}
	}
	return out
}

// detect ranks the model's source languages for texts as LibreTranslate
// ranks its installed ones: each text's probabilities in percent, a
// language's confidence averaged over the texts, ranked by confidence
// weighted by the texts' lengths. Languages of confidence 0 (under half a
// percent everywhere) are left out.
func (s *Server) detect(texts []string) ([]detected, error) {
	if s.opt.LID == nil {
		return nil, badRequest(`Invalid request: language detection needs a language-ID model (strata serve --lid-model)`)
	}
	langs := s.sourceLanguages()
	type acc struct {
		sum    float64
		n, len int
	}
	by := map[string]*acc{}
	for _, t := range texts {
		line := strings.Join(strings.FieldsFunc(t, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
		for _, p := range langid.Among(s.opt.LID, line, langs) {
			c := math.Round(float64(min(p.Prob, 1)) * 100)
			if c <= 0 {
				continue
			}
			a := by[p.Lang()]
			if a == nil {
				a = &acc{}
				by[p.Lang()] = a
			}
			a.sum, a.n, a.len = a.sum+c, a.n+1, a.len+len(t)
		}
	}
	out := make([]detected, 0, len(by))
	weight := map[string]float64{}
	for l, a := range by {
		c := a.sum / float64(a.n)
		out = append(out, detected{Confidence: c, Language: l})
		weight[l] = c * float64(a.len)
	}
	slices.SortFunc(out, func(a, b detected) int {
		return cmp.Or(-cmp.Compare(weight[a.Language], weight[b.Language]), cmp.Compare(a.Language, b.Language))
	})
	return out, nil
}

// detectSource picks the source of a request with source "auto": the most
// probable of the model's source languages over all its texts (one
// request has one direction), reported for every text as LibreTranslate
// does. It refuses only when none of them is probable at all.
func (s *Server) detectSource(texts []string) ([]detected, string, error) {
	det, err := s.detect(texts)
	if err != nil {
		return nil, "", err
	}
	if len(det) == 0 {
		return nil, "", badRequest("Invalid request: the text is in none of the model's source languages %v (each is under 0.5%% probable); give source", s.sourceLanguages())
	}
	out := make([]detected, len(texts))
	for i := range out {
		out[i] = det[0]
	}
	return out, det[0].Language, nil
}

// handleDetect is LibreTranslate's POST /detect: q (a string, or an array
// whose detections are averaged) as JSON or a form; the answer is the
// model's source languages that are probable, most probable first, or,
// when none is, the most probable with confidence 0 (LibreTranslate also
// answers with a zero-confidence guess then).
func (s *Server) handleDetect(w http.ResponseWriter, r *http.Request, rl *reqLog) error {
	rl.api = "libretranslate"
	body, err := s.peekBody(w, r)
	if err != nil {
		return err
	}
	if err := checkJSONSyntax(r, body); err != nil {
		return err
	}
	texts, err := detectTexts(r, body)
	if err != nil {
		return err
	}
	det, err := s.detect(texts)
	if err != nil {
		return err
	}
	if len(det) == 0 {
		det = s.guess(texts)
	}
	writeJSON(w, http.StatusOK, det)
	return nil
}

// guess is the most probable source language with confidence 0, for a
// text none of them is probable for.
func (s *Server) guess(texts []string) []detected {
	langs := s.sourceLanguages()
	best, p := "", float32(-1)
	for _, t := range texts {
		for _, x := range langid.Among(s.opt.LID, t, langs) {
			if x.Prob > p {
				best, p = x.Lang(), x.Prob
			}
		}
	}
	if best == "" && len(langs) > 0 {
		best = langs[0]
	}
	return []detected{{Confidence: 0, Language: best}}
}

// detectTexts reads /detect's q from a JSON object or a form.
func detectTexts(r *http.Request, body []byte) ([]string, error) {
	var texts []string
	if fields, ok := jsonObject(body); ok {
		var err error
		if texts, _, err = libreTexts(fields["q"]); err != nil {
			return nil, err
		}
	} else {
		f, err := formValues(r, body)
		if err != nil {
			return nil, err
		}
		texts = f["q"]
	}
	if len(texts) == 0 || strings.Join(texts, "") == "" {
		return nil, badRequest("Invalid request: missing q parameter")
	}
	return texts, nil
}
