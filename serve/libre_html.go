package serve

import (
	"context"
	"strings"

	"github.com/strata-nmt/strata/catalog/markup"
	"github.com/strata-nmt/strata/catalog/placeholder"
)

// htmlTexts translates texts that are HTML (LibreTranslate's format
// "html"): each is cut into sentences and alt and title values
// (catalog/markup), all of a request's units are translated as one job,
// under the limits of its lines, and each text is written back with its
// markup. A unit whose translation would break the markup stays in the
// source language. source "auto" is decided on the units' text.
func (s *Server) htmlTexts(ctx context.Context, req *libreRequest, texts []string, rl *reqLog) ([]string, []detected, error) {
	docs := make([]*markup.Doc, len(texts))
	var lines, plain []string
	for i, t := range texts {
		d, err := markup.Parse([]byte(t), "q", placeholder.Options{})
		if err != nil {
			return nil, nil, badRequest("Invalid request: %v", err)
		}
		docs[i] = d
		var p []string
		for _, u := range d.Units {
			lines = append(lines, u.Masked.Text)
			p = append(p, u.Masked.Text)
		}
		plain = append(plain, strings.Join(p, " "))
	}
	var det []detected
	if req.Source == "auto" {
		var err error
		if det, req.Source, err = s.detectSource(plain); err != nil {
			return nil, nil, err
		}
	}
	*rl = reqLog{api: rl.api, lines: len(lines), src: req.Source, tgt: req.Target, beam: s.opt.Search.Beam, text: texts}
	outs := make([]string, len(lines))
	if len(lines) > 0 {
		res, err := s.translateLines(ctx, req.Source, req.Target, lines)
		if err != nil {
			return nil, nil, err
		}
		outs = res
	}
	out := make([]string, len(texts))
	k := 0
	for i, d := range docs {
		d.SetTranslations(outs[k : k+len(d.Units)])
		k += len(d.Units)
		var b strings.Builder
		d.WriteTo(&b)
		out[i] = b.String()
	}
	return out, det, nil
}

// translateLines translates lines as one job with the server's search,
// each line's best translation.
func (s *Server) translateLines(ctx context.Context, src, tgt string, lines []string) ([]string, error) {
	j := job{key: key{src: src, tgt: tgt, beam: s.opt.Search.Beam, nbest: 1}, lines: lines, attn: -1}
	t, err := s.translate(ctx, j)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(lines))
	for i, r := range t.res {
		out[i] = r.Best()
	}
	return out, nil
}
