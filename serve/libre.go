package serve

import (
	"bytes"
	"encoding/json"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

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

type detected struct {
	Confidence float64 `json:"confidence"` // percent, as LibreTranslate
	Language   string  `json:"language"`
}

// isLibre tells a LibreTranslate request (a form, or JSON with "q") from
// strata's own (JSON with "text").
func isLibre(r *http.Request, body []byte) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data" {
		return true
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(body, &probe) != nil {
		return false
	}
	_, ok := probe["q"]
	return ok
}

// parseLibre reads q as a list of texts and whether it was one string.
func parseLibre(r *http.Request, body []byte) (req libreRequest, texts []string, single bool, err error) {
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "application/x-www-form-urlencoded" || mt == "multipart/form-data" {
		var f url.Values
		if mt == "multipart/form-data" {
			form, e := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(int64(len(body)) + 1)
			if e != nil {
				return req, nil, false, badRequest("Invalid request: %v", e)
			}
			f = form.Value
		} else if f, err = url.ParseQuery(string(body)); err != nil {
			return req, nil, false, badRequest("Invalid request: %v", err)
		}
		req.Source, req.Target, req.Format = f.Get("source"), f.Get("target"), f.Get("format")
		if a := f.Get("alternatives"); a != "" {
			if req.Alternatives, err = strconv.Atoi(a); err != nil {
				return req, nil, false, badRequest("Invalid request: alternatives %q is not a number", a)
			}
		}
		texts = f["q"]
		if len(texts) == 0 {
			return req, nil, false, badRequest("Invalid request: missing q parameter")
		}
		return req, texts, len(texts) == 1, nil
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&req); err != nil {
		return req, nil, false, badRequest("Invalid request: %v", err)
	}
	var one string
	switch {
	case len(req.Q) == 0 || string(req.Q) == "null":
		return req, nil, false, badRequest("Invalid request: missing q parameter")
	case json.Unmarshal(req.Q, &one) == nil:
		return req, []string{one}, true, nil
	case json.Unmarshal(req.Q, &texts) == nil:
		return req, texts, false, nil
	}
	return req, nil, false, badRequest("Invalid request: q must be a string or an array of strings")
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
	}
	// a text may hold several lines: each is translated, and the breaks kept
	var lines []string
	counts := make([]int, len(texts))
	for i, t := range texts {
		ls := strings.Split(t, "\n")
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
			alts[i] = append(alts[i], strings.Join(alt, "\n"))
		}
		for l := 0; l < n; l++ {
			best[l] = t.res[k+l].Best()
		}
		out[i] = strings.Join(best, "\n")
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

// detectSource identifies each text's language with the LID model; the
// request is translated from the first text's (one source per request).
func (s *Server) detectSource(texts []string) ([]detected, string, error) {
	if s.opt.LID == nil {
		return nil, "", badRequest(`Invalid request: source "auto" needs a language-ID model (strata serve --lid-model)`)
	}
	det := make([]detected, len(texts))
	for i, t := range texts {
		if p := s.opt.LID.Predict(strings.ReplaceAll(t, "\n", " "), 1, 0); len(p) > 0 {
			det[i] = detected{Confidence: float64(min(p[0].Prob, 1)) * 100, Language: p[0].Lang()}
		}
	}
	src := det[0].Language
	if _, ok := s.b.Vocab.LangIndex(src); !ok {
		return nil, "", badRequest("Invalid request: detected source language %q is not one of the model's languages %v", src, s.b.Vocab.Languages())
	}
	return det, src, nil
}

// libreLanguage is an entry of LibreTranslate's GET /languages.
type libreLanguage struct {
	Code    string   `json:"code"`
	Name    string   `json:"name"`
	Targets []string `json:"targets"`
}

// handleLanguages lists the model's languages as LibreTranslate does;
// every language is a target of every other (a multilingual model may
// translate poorly in directions it was not trained on).
func (s *Server) handleLanguages(w http.ResponseWriter, r *http.Request) {
	langs := s.b.Vocab.Languages()
	out := make([]libreLanguage, len(langs))
	for i, l := range langs {
		name := l
		if tag, err := language.Parse(l); err == nil {
			if n := display.English.Languages().Name(tag); n != "" {
				name = n
			}
		}
		out[i] = libreLanguage{Code: l, Name: name, Targets: langs}
	}
	writeJSON(w, http.StatusOK, out)
}
