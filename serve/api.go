package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/langid"
)

// Request is the body of strata's own POST /translate.
type Request struct {
	Text    []string `json:"text"`
	SrcLang string   `json:"src_lang"`
	TgtLang string   `json:"tgt_lang"`
	Pivot   string   `json:"pivot"`
	Beam    int      `json:"beam"`  // 0: the server's --beam
	NBest   int      `json:"nbest"` // hypotheses per line in "nbest" (0: none)
	// Alignment asks for each translation's word alignment
	// (decode.AlignWords, "s-t" pairs as strata translate --alignment).
	Alignment bool `json:"alignment"`
	// AttentionLayer asks for the cross-attention map (mean of heads) of
	// this decoder layer (0-based) for every line.
	AttentionLayer *int `json:"attention_layer"`
	// LID asks for the language identified in each translation (when the
	// server has a language-ID model, --lid-model).
	LID bool `json:"lid"`
}

// Response is the answer to a Request.
type Response struct {
	Translations []string        `json:"translations"`
	Alignments   []string        `json:"alignments,omitempty"`
	NBest        [][]Hypothesis  `json:"nbest,omitempty"`
	OutputLID    []*LanguageID   `json:"output_lid,omitempty"`
	Attention    []*AttentionMap `json:"attention,omitempty"`
	Model        string          `json:"model"`
	Millis       float64         `json:"ms"`
}

// Hypothesis is one entry of an n-best list.
type Hypothesis struct {
	Text  string  `json:"text"`
	Score float64 `json:"score"` // length-normalised log-probability
}

// LanguageID is the language identified in a translation.
type LanguageID struct {
	Lang string  `json:"lang"`
	Prob float32 `json:"prob"`
}

// AttentionMap is a line's cross-attention, heads averaged:
// Weights[i][j] is target token i's weight on source token j.
type AttentionMap struct {
	Layer   int         `json:"layer"`
	Source  []string    `json:"source"`
	Target  []string    `json:"target"`
	Weights [][]float32 `json:"weights"`
}

// reqLog is what a handler tells the request log.
type reqLog struct {
	api      string // "strata" or "libretranslate", once the body is read
	lines    int
	src, tgt string
	beam     int
	text     []string
	out      []string
}

// Handler returns the HTTP routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /translate", s.instrument("unknown", s.handleTranslate))
	mux.HandleFunc("POST /detect", s.instrument("libretranslate", s.handleDetect))
	mux.HandleFunc("POST /translate_file", s.instrument("libretranslate", s.handleTranslateFile))
	mux.HandleFunc("GET /download_file/{name}", s.handleDownload)
	mux.HandleFunc("GET /frontend/settings", s.handleFrontendSettings)
	mux.HandleFunc("GET /languages", s.handleLanguages)
	mux.HandleFunc("GET /health", s.handleHealth)
	mux.HandleFunc("GET /ready", s.handleReady)
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.met.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /{$}", s.handlePage)
	return mux
}

// instrument runs a translation handler under the request deadline and
// records its status, latency and log line.
func (s *Server) instrument(api string, h func(http.ResponseWriter, *http.Request, *reqLog) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		s.active.Add(1)
		s.met.active.Inc()
		defer func() {
			s.active.Add(-1)
			s.met.active.Dec()
			s.answered.Add(1)
		}()
		ctx, cancel := context.WithTimeout(r.Context(), s.opt.Timeout)
		defer cancel()
		var rl reqLog
		code := http.StatusOK
		if err := h(w, r.WithContext(ctx), &rl); err != nil {
			code = s.writeError(w, err)
		}
		if code == http.StatusOK {
			s.answeredLines.Add(int64(rl.lines))
		}
		api := api // the handler's own: concurrent requests share the closure
		if rl.api != "" {
			api = rl.api
		}
		el := time.Since(start)
		s.met.requests.WithLabelValues(api, fmt.Sprint(code)).Inc()
		s.met.latency.WithLabelValues(api).Observe(el.Seconds())
		attrs := []slog.Attr{slog.String("api", api), slog.Int("status", code), slog.Int("lines", rl.lines),
			slog.String("src", rl.src), slog.String("tgt", rl.tgt), slog.Int("beam", rl.beam),
			slog.Float64("ms", float64(el.Microseconds())/1000), slog.String("remote", r.RemoteAddr)}
		if s.opt.LogText {
			attrs = append(attrs, slog.Any("text", rl.text), slog.Any("translations", rl.out))
		}
		s.log.LogAttrs(ctx, slog.LevelInfo, "request", attrs...)
	}
}

func (s *Server) writeError(w http.ResponseWriter, err error) int {
	var he *httpError
	if !errors.As(err, &he) {
		he = &httpError{http.StatusInternalServerError, err.Error()}
	}
	if he.code == statusClientClosed { // nobody to answer
		return he.code
	}
	if he.code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, he.code, map[string]string{"error": he.msg})
	return he.code
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// peekBody reads a body no larger than --max-body-bytes.
func (s *Server) peekBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opt.MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, &httpError{http.StatusRequestEntityTooLarge,
			fmt.Sprintf("request body larger than %d bytes (--max-body-bytes)", s.opt.MaxBody)}
	case err != nil:
		return nil, badRequest("reading the request body: %v", err)
	}
	return body, nil
}

// decodeStrict decodes one JSON object with only known fields.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("request body: %v", err)
	}
	return nil
}

func (s *Server) handleTranslate(w http.ResponseWriter, r *http.Request, rl *reqLog) error {
	body, err := s.peekBody(w, r)
	if err != nil {
		return err
	}
	if err := checkJSONSyntax(r, body); err != nil {
		return err
	}
	if isLibre(body) {
		rl.api = "libretranslate"
		return s.handleLibre(w, r, body, rl)
	}
	rl.api = "strata"
	var req Request
	if err := decodeStrict(body, &req); err != nil {
		return err
	}
	if err := s.checkSearchFields(req); err != nil {
		return err
	}
	j := job{key: key{src: req.SrcLang, tgt: req.TgtLang, pivot: req.Pivot, beam: req.Beam,
		nbest: max(1, req.NBest), align: req.Alignment}, lines: req.Text, attn: -1}
	if j.key.beam == 0 {
		j.key.beam = max(s.opt.Search.Beam, j.key.nbest)
	}
	if req.AttentionLayer != nil {
		if j.attn = *req.AttentionLayer; j.attn < 0 {
			return badRequest("attention_layer %d is negative", j.attn)
		}
	}
	if req.LID && s.opt.LID == nil {
		return badRequest(`"lid": this server has no language-ID model (--lid-model)`)
	}
	*rl = reqLog{api: rl.api, lines: len(req.Text), src: req.SrcLang, tgt: req.TgtLang, beam: j.key.beam, text: req.Text}
	start := time.Now()
	t, err := s.translate(r.Context(), j)
	if err != nil {
		return err
	}
	resp := Response{Translations: make([]string, len(t.res)), Model: s.b.Name()}
	for i, x := range t.res {
		resp.Translations[i] = x.Best()
	}
	if req.Alignment {
		resp.Alignments = alignments(t.res)
	}
	if req.NBest > 0 {
		resp.NBest = nbest(t.res)
	}
	if req.LID {
		resp.OutputLID = identify(s.opt.LID, resp.Translations)
	}
	if j.attn >= 0 {
		resp.Attention = s.attentionMaps(t.attns)
	}
	rl.out = resp.Translations
	resp.Millis = float64(time.Since(start).Microseconds()) / 1000
	writeJSON(w, http.StatusOK, resp)
	return nil
}

// checkSearchFields checks beam and nbest against --max-beam, naming the
// field the client sent (the beam it gets by default may be raised to its
// nbest, a number it never sent).
func (s *Server) checkSearchFields(req Request) error {
	mb := s.opt.MaxBeam
	switch {
	case req.Beam < 0 || req.Beam > mb:
		return badRequest("beam %d: must be between 1 and %d (--max-beam), or 0 for the server's %d", req.Beam, mb, s.opt.Search.Beam)
	case req.NBest < 0:
		return badRequest("nbest %d is negative", req.NBest)
	case req.NBest > mb:
		return badRequest("nbest %d: this server returns at most %d hypotheses per line (--max-beam)", req.NBest, mb)
	case req.Beam > 0 && req.NBest > req.Beam:
		return badRequest("nbest %d: must be at most beam %d", req.NBest, req.Beam)
	}
	return nil
}

func alignments(res []decode.Result) []string {
	out := make([]string, len(res))
	for i, x := range res {
		if len(x.Links) > 0 {
			out[i] = decode.FormatLinks(x.Links[0])
		}
	}
	return out
}

func nbest(res []decode.Result) [][]Hypothesis {
	out := make([][]Hypothesis, len(res))
	for i, x := range res {
		out[i] = []Hypothesis{}
		for k, h := range x.Hyps {
			out[i] = append(out[i], Hypothesis{Text: x.Texts[k], Score: h.Score})
		}
	}
	return out
}

// identify is the most probable language of each text (nil for an empty
// one).
func identify(d langid.Detector, texts []string) []*LanguageID {
	out := make([]*LanguageID, len(texts))
	for i, t := range texts {
		if p := d.Predict(t, 1, 0); len(p) > 0 && t != "" {
			out[i] = &LanguageID{Lang: p[0].Lang(), Prob: p[0].Prob}
		}
	}
	return out
}

func (s *Server) attentionMaps(maps []*decode.AttentionMap) []*AttentionMap {
	out := make([]*AttentionMap, len(maps))
	for i, a := range maps {
		if a == nil {
			continue
		}
		out[i] = &AttentionMap{Layer: a.Layer, Source: s.b.Vocab.Tokens(a.Keys),
			Target: s.b.Vocab.Tokens(a.Queries), Weights: a.Mean()}
	}
	return out
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	cfg := s.b.Model.Config()
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "model": s.b.Name(), "summary": cfg.Summary(),
		"languages": s.b.Vocab.Languages(), "decoder_layers": cfg.DecoderLayers, "beam": s.opt.Search.Beam,
		"max_beam": s.opt.MaxBeam, "lid": s.opt.LID != nil})
}

// handleReady answers 200 while requests can be taken: not shutting down,
// queue not full (the model is loaded before the server listens).
func (s *Server) handleReady(w http.ResponseWriter, r *http.Request) {
	switch {
	case s.draining.Load():
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "shutting down"})
	case s.bat.full():
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "queue full"})
	default:
		writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	}
}
