package serve

import (
	"net/http"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// frontendLanguage is a language of GET /frontend/settings.
type frontendLanguage struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// handleFrontendSettings is LibreTranslate's GET /frontend/settings, which
// its web page and clients read before they translate: the character
// limit, the file formats, whether keys are needed (never: strata takes
// and ignores api_key) and the languages to preselect (source "auto" when
// the server identifies languages, else the model's first; the target its
// second).
func (s *Server) handleFrontendSettings(w http.ResponseWriter, r *http.Request) {
	langs := s.b.Vocab.Languages()
	src := frontendLanguage{Code: "auto", Name: "Auto Detect"}
	if s.opt.LID == nil && len(langs) > 0 {
		src = frontendLanguage{Code: langs[0], Name: languageName(langs[0])}
	}
	var tgt frontendLanguage
	switch {
	case len(langs) > 1:
		tgt = frontendLanguage{Code: langs[1], Name: languageName(langs[1])}
	case len(langs) == 1:
		tgt = frontendLanguage{Code: langs[0], Name: languageName(langs[0])}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"charLimit":            s.charLimit(),
		"frontendTimeout":      500,
		"apiKeys":              false,
		"keyRequired":          false,
		"suggestions":          false,
		"filesTranslation":     true,
		"supportedFilesFormat": fileExtensions(),
		"language":             map[string]frontendLanguage{"source": src, "target": tgt},
	})
}

// charLimit bounds the text of one request: its lines' bytes, within the
// body's (a character is at least a byte).
func (s *Server) charLimit() int64 {
	return min(int64(s.opt.MaxLines)*int64(s.opt.MaxLineLen), s.opt.MaxBody)
}

// languageName is a language's English name, or its code.
func languageName(code string) string {
	if tag, err := language.Parse(code); err == nil {
		if n := display.English.Languages().Name(tag); n != "" {
			return n
		}
	}
	return code
}
