package serve

import (
	"encoding/json"
	"net/http"
)

// libreRequest is LibreTranslate's POST /translate request: q is one text
// or an array of texts; source may be "auto" (language ID, --lid-model);
// format "text" (default) or "html" (a page or fragment, translated
// sentence by sentence with its markup kept); alternatives asks for that many further translations; api_key is
// accepted and ignored.
type libreRequest struct {
	Q            json.RawMessage `json:"q"`
	Source       string          `json:"source"`
	Target       string          `json:"target"`
	Format       string          `json:"format"`
	Alternatives int             `json:"alternatives"`
	APIKey       string          `json:"api_key"`
}

func (s *Server) handleLibre(w http.ResponseWriter, r *http.Request, body []byte, rl *reqLog) error {
	req, texts, single, err := parseLibre(r, body)
	if err != nil {
		return err
	}
	switch {
	case req.Source == "":
		return badRequest("Invalid request: missing source parameter")
	case req.Target == "":
		return badRequest("Invalid request: missing target parameter")
	case req.Format != "" && req.Format != "text" && req.Format != "html":
		return badRequest("Invalid request: format %q is not supported: give \"text\" or \"html\"", req.Format)
	case req.Format == "html" && req.Alternatives > 0:
		return badRequest("Invalid request: alternatives are given for format \"text\" only")
	case req.Alternatives < 0:
		return badRequest("Invalid request: alternatives %d is negative", req.Alternatives)
	case req.Alternatives >= s.opt.MaxBeam:
		return badRequest("Invalid request: alternatives %d: this server gives at most %d (--max-beam %d, less the translation)", req.Alternatives, s.opt.MaxBeam-1, s.opt.MaxBeam)
	}
	if req.Format == "html" {
		out, det, err := s.htmlTexts(r.Context(), &req, texts, rl)
		if err != nil {
			return err
		}
		rl.out = out
		writeJSON(w, http.StatusOK, libreAnswer(out, nil, det, single, 0))
		return nil
	}
	// a text may hold several lines: each is translated, and the breaks kept
	var lines []string
	counts := make([]int, len(texts))
	breaks := make([][]string, len(texts))
	for i, t := range texts {
		var ls []string
		ls, breaks[i] = splitBreaks(t)
		counts[i] = len(ls)
		lines = append(lines, ls...)
	}
	var det []detected
	if req.Source == "auto" {
		if det, req.Source, err = s.detectSource(texts); err != nil {
			return err
		}
	}
	nb := req.Alternatives + 1
	j := job{key: key{src: req.Source, tgt: req.Target, beam: max(s.opt.Search.Beam, nb), nbest: nb}, lines: lines, attn: -1}
	*rl = reqLog{api: rl.api, lines: len(lines), src: req.Source, tgt: req.Target, beam: j.key.beam, text: texts}
	t, err := s.translate(r.Context(), j)
	if err != nil {
		return err
	}
	out := make([]string, len(texts))
	alts := make([][]string, len(texts))
	k := 0
	for i, n := range counts {
		best := make([]string, n)
		for a := 0; a < req.Alternatives; a++ {
			alt := make([]string, n)
			for l := 0; l < n; l++ {
				if texts := t.res[k+l].Texts; a+1 < len(texts) {
					alt[l] = texts[a+1]
				}
			}
			alts[i] = append(alts[i], joinBreaks(alt, breaks[i]))
		}
		for l := 0; l < n; l++ {
			best[l] = t.res[k+l].Best()
		}
		out[i] = joinBreaks(best, breaks[i])
		k += n
	}
	rl.out = out
	writeJSON(w, http.StatusOK, libreAnswer(out, alts, det, single, req.Alternatives))
	return nil
}

// libreAnswer is LibreTranslate's answer: one text's, or a list's.
func libreAnswer(out []string, alts [][]string, det []detected, single bool, nalts int) map[string]any {
	resp := map[string]any{}
	if single {
		resp["translatedText"] = out[0]
		if nalts > 0 {
			resp["alternatives"] = nonNil(alts[0])
		}
		if det != nil {
			resp["detectedLanguage"] = det[0]
		}
		return resp
	}
	resp["translatedText"] = out
	if nalts > 0 {
		for i := range alts {
			alts[i] = nonNil(alts[i])
		}
		resp["alternatives"] = alts
	}
	if det != nil {
		resp["detectedLanguage"] = det
	}
	return resp
}

func nonNil(x []string) []string {
	if x == nil {
		return []string{}
	}
	return x
}

// libreLanguage is an entry of LibreTranslate's GET /languages.
type libreLanguage struct {
	Code    string   `json:"code"`
	Name    string   `json:"name"`
	Targets []string `json:"targets"`
}

// handleLanguages lists the model's languages as LibreTranslate does,
// each with the targets it may be translated into: those of the
// directions the model was trained on and its zero-shot ones
// (data.Directions), every other language when they are unknown.
func (s *Server) handleLanguages(w http.ResponseWriter, r *http.Request) {
	langs := s.b.Vocab.Languages()
	out := make([]libreLanguage, len(langs))
	for i, l := range langs {
		targets := []string{}
		for _, t := range langs {
			if s.b.Directions.Allows(l, t) {
				targets = append(targets, t)
			}
		}
		out[i] = libreLanguage{Code: l, Name: languageName(l), Targets: targets}
	}
	writeJSON(w, http.StatusOK, out)
}
