// Package serve is strata's translation server: an HTTP JSON API over a
// loaded model, with a fixed pool of decoders (each owns its search state,
// which is not safe for concurrent use) and requests queued for them.
//
//	POST /translate  {"text": ["...", ...], "src_lang": "en", "tgt_lang": "de",
//	                  "beam": 5, "pivot": ""}
//	              -> {"translations": ["...", ...], "model": "...", "ms": 12.3}
//	GET  /health     -> {"status": "ok", "model": "...", "languages": [...]}
package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/strata-nmt/strata/decode"
)

// Options configure a Server.
type Options struct {
	Workers  int            // decoders (each uses Threads kernel threads)
	Threads  int            // kernel threads per decoder (0: all cores)
	Search   decode.Options // default search; requests may change the beam
	MaxLines int            // lines per request
	MaxBeam  int
}

// Server answers translation requests.
type Server struct {
	b    *decode.Bundle
	opt  Options
	jobs chan job
}

type job struct {
	req  Request
	done chan reply
}

type reply struct {
	out, links []string
	err        error
}

// Request is the body of POST /translate.
type Request struct {
	Text    []string `json:"text"`
	SrcLang string   `json:"src_lang"`
	TgtLang string   `json:"tgt_lang"`
	Pivot   string   `json:"pivot"`
	Beam    int      `json:"beam"`
	// Alignment asks for each translation's word alignment
	// (decode.AlignWords, "s-t" pairs as strata translate --alignment).
	Alignment bool `json:"alignment"`
}

// Response is the answer to a translation request.
type Response struct {
	Translations []string `json:"translations"`
	Alignments   []string `json:"alignments,omitempty"`
	Model        string   `json:"model"`
	Millis       float64  `json:"ms"`
}

// New starts the decoder pool; it stops when ctx is cancelled.
func New(ctx context.Context, b *decode.Bundle, opt Options) (*Server, error) {
	if opt.Workers < 1 {
		opt.Workers = 1
	}
	if opt.MaxLines <= 0 {
		opt.MaxLines = 256
	}
	if opt.MaxBeam <= 0 {
		opt.MaxBeam = 16
	}
	if err := opt.Search.Validate(); err != nil {
		return nil, err
	}
	s := &Server{b: b, opt: opt, jobs: make(chan job)}
	for i := 0; i < opt.Workers; i++ {
		s.startWorker(ctx)
	}
	return s, nil
}

// startWorker runs one decoder; searchers are cached per beam size.
func (s *Server) startWorker(ctx context.Context) {
	go func() {
		searchers := map[int]*decode.Translator{}
		for {
			select {
			case <-ctx.Done():
				return
			case j := <-s.jobs:
				out, links, err := s.translate(searchers, j.req)
				j.done <- reply{out, links, err}
			}
		}
	}()
}

func (s *Server) translate(cache map[int]*decode.Translator, r Request) (out, links []string, err error) {
	beam := r.Beam
	if beam == 0 {
		beam = s.opt.Search.Beam
	}
	t, ok := cache[beam]
	if !ok {
		o := s.opt.Search
		o.Beam, o.Greedy = beam, beam == 1
		sr, err := s.b.Searcher(o)
		if err != nil {
			return nil, nil, err
		}
		if s.opt.Threads > 0 {
			sr.SetThreads(s.opt.Threads)
		}
		t = decode.NewTranslator(s.b, sr)
		cache[beam] = t
	}
	t.Align = r.Alignment
	res, err := t.Lines(r.Text, r.SrcLang, r.TgtLang, r.Pivot)
	if err != nil {
		return nil, nil, err
	}
	out = make([]string, len(res))
	for i, x := range res {
		out[i] = x.Best()
		if r.Alignment {
			if len(x.Links) > 0 {
				links = append(links, decode.FormatLinks(x.Links[0]))
			} else {
				links = append(links, "") // an empty line
			}
		}
	}
	return out, links, nil
}

// Handler returns the HTTP routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /translate", s.handleTranslate)
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "model": s.b.Name(), "languages": s.b.Vocab.Languages()})
	})
	return mux
}

func (s *Server) handleTranslate(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	var req Request
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Errorf("request body: %w", err))
		return
	}
	if err := s.check(req); err != nil {
		writeError(w, http.StatusBadRequest, err)
		return
	}
	j := job{req: req, done: make(chan reply, 1)}
	select {
	case s.jobs <- j:
	case <-r.Context().Done():
		return
	}
	rep := <-j.done
	if rep.err != nil {
		writeError(w, http.StatusBadRequest, rep.err)
		return
	}
	writeJSON(w, http.StatusOK, Response{Translations: rep.out, Alignments: rep.links, Model: s.b.Name(),
		Millis: float64(time.Since(start).Microseconds()) / 1000})
}

func (s *Server) check(r Request) error {
	switch {
	case len(r.Text) == 0:
		return errors.New(`"text" must hold at least one line`)
	case len(r.Text) > s.opt.MaxLines:
		return fmt.Errorf(`"text" holds %d lines; this server takes at most %d per request`, len(r.Text), s.opt.MaxLines)
	case r.Beam < 0 || r.Beam > s.opt.MaxBeam:
		return fmt.Errorf(`"beam" %d: must be between 1 and %d`, r.Beam, s.opt.MaxBeam)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, err error) {
	writeJSON(w, code, map[string]string{"error": err.Error()})
}
