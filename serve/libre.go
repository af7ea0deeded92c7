package serve

import (
	"encoding/json"
	"net/http"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// libreRequest is LibreTranslate's POST /translate request: q is one text
// or an array of texts; source may be "auto" (language ID, --lid-model);
// format "text" (default) or "html" (refused: strata translates plain
// text); alternatives asks for that many further translations; api_key is
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
	case req.Format != "" && req.Format != "text":
		return badRequest("Invalid request: format %q is not supported (strata translates plain text: \"text\")", req.Format)
	case req.Alternatives < 0:
		return badRequest("Invalid request: alternatives %d is negative", req.Alternatives)
	case req.Alternatives >= s.opt.MaxBeam:
		return badRequest("Invalid request: alternatives %d: this server gives at most %d (--max-beam %d, less the translation)", req.Alternatives, s.opt.MaxBeam-1, s.opt.MaxBeam)
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
	resp := map[string]any{}
	if single {
		resp["translatedText"] = out[0]
		if req.Alternatives > 0 {
			resp["alternatives"] = nonNil(alts[0])
		}
		if det != nil {
			resp["detectedLanguage"] = det[0]
		}
	} else {
		resp["translatedText"] = out
		if req.Alternatives > 0 {
			for i := range alts {
				alts[i] = nonNil(alts[i])
			}
			resp["alternatives"] = alts
		}
		if det != nil {
			resp["detectedLanguage"] = det
		}
	}
	writeJSON(w, http.StatusOK, resp)
	return nil
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
		name := l
		if tag, err := language.Parse(l); err == nil {
			if n := display.English.Languages().Name(tag); n != "" {
				name = n
			}
		}
		out[i] = libreLanguage{Code: l, Name: name, Targets: targets}
	}
	writeJSON(w, http.StatusOK, out)
}
