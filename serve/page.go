package serve

import (
	_ "embed"
	"net/http"
)

// page is the try-it page: one self-contained HTML file (no external
// assets, so it works on a machine without internet access).
//
//go:embed page.html
var page []byte

func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'")
	w.Write(page)
}
