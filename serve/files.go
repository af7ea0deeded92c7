package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/strata-nmt/strata/catalog/markup"
	"github.com/strata-nmt/strata/catalog/placeholder"
	"github.com/strata-nmt/strata/catalog/po"
	"github.com/strata-nmt/strata/catalog/pretranslate"
	"github.com/strata-nmt/strata/catalog/xliff"
)

// fileFormat translates a file of one format: parse errors are the
// client's (400), translation errors keep their status.
type fileFormat func(ctx context.Context, tr pretranslate.Translator, data []byte, name string, o pretranslate.Options) ([]byte, error)

// fileFormats are the file API's formats, by extension.
var fileFormats = map[string]fileFormat{
	".txt":   translateTextFile,
	".po":    translatePOFile,
	".xliff": translateXLIFFFile,
	".xlf":   translateXLIFFFile,
	".html":  translateHTMLFile,
	".htm":   translateHTMLFile,
}

func fileExtensions() []string {
	var exts []string
	for e := range fileFormats {
		exts = append(exts, e)
	}
	slices.Sort(exts)
	return exts
}

// handleTranslateFile is LibreTranslate's POST /translate_file: a
// multipart form with file, source and target (api_key is accepted and
// ignored). The file is translated under the limits of /translate (its
// size under --max-body-bytes, its lines under --max-lines and
// --max-line-bytes) and kept for download; the answer is its URL.
func (s *Server) handleTranslateFile(w http.ResponseWriter, r *http.Request, rl *reqLog) error {
	rl.api = "libretranslate"
	body, err := s.peekBody(w, r)
	if err != nil {
		return err
	}
	name, data, src, tgt, err := fileForm(r, body)
	if err != nil {
		return err
	}
	fn, ok := fileFormats[strings.ToLower(path.Ext(name))]
	if !ok {
		return badRequest("Invalid request: file format not supported: %q (give one of %s)", path.Ext(name), strings.Join(fileExtensions(), ", "))
	}
	if err := s.check.CheckDirection(src, tgt, ""); err != nil {
		return badRequest("%s", err)
	}
	*rl = reqLog{api: rl.api, src: src, tgt: tgt, beam: s.opt.Search.Beam}
	tr := &countingTranslator{s: s}
	out, err := fn(r.Context(), tr, data, name, pretranslate.Options{Src: src, Tgt: tgt})
	if err != nil {
		return err
	}
	rl.lines = tr.lines
	key, err := s.files.put(name, out)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]string{"translatedFileUrl": baseURL(r) + "/download_file/" + key})
	return nil
}

// fileForm reads the multipart fields of /translate_file.
func fileForm(r *http.Request, body []byte) (name string, data []byte, src, tgt string, err error) {
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return "", nil, "", "", badRequest("Invalid request: send a multipart/form-data body with the fields file, source and target")
	}
	form, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(int64(len(body)) + 1)
	if err != nil {
		return "", nil, "", "", badRequest("Invalid request: %v", err)
	}
	defer form.RemoveAll()
	get := func(k string) string {
		if v := form.Value[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	src, tgt = get("source"), get("target")
	switch {
	case len(form.File["file"]) == 0:
		return "", nil, "", "", badRequest("Invalid request: missing file parameter")
	case src == "":
		return "", nil, "", "", badRequest("Invalid request: missing source parameter")
	case tgt == "":
		return "", nil, "", "", badRequest("Invalid request: missing target parameter")
	case src == "auto":
		return "", nil, "", "", badRequest("Invalid request: source \"auto\" is not supported for files: give the file's language")
	}
	fh := form.File["file"][0]
	if fh.Filename == "" {
		return "", nil, "", "", badRequest("Invalid request: empty file")
	}
	f, err := fh.Open()
	if err != nil {
		return "", nil, "", "", badRequest("Invalid request: %v", err)
	}
	defer f.Close()
	data, err = io.ReadAll(f)
	if err != nil {
		return "", nil, "", "", badRequest("Invalid request: %v", err)
	}
	return fh.Filename, data, src, tgt, nil
}

// baseURL is the scheme and host the client reached the server by.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// countingTranslator translates through the server and counts the lines.
type countingTranslator struct {
	s     *Server
	lines int
}

func (t *countingTranslator) Translate(ctx context.Context, src, tgt string, lines []string) ([]string, error) {
	t.lines += len(lines)
	return t.s.translateLines(ctx, src, tgt, lines)
}

// translateTextFile translates a text file line by line, its line breaks
// kept.
func translateTextFile(ctx context.Context, tr pretranslate.Translator, data []byte, _ string, o pretranslate.Options) ([]byte, error) {
	lines, breaks := splitBreaks(string(data))
	out, err := tr.Translate(ctx, o.Src, o.Tgt, lines)
	if err != nil {
		return nil, err
	}
	return []byte(joinBreaks(out, breaks)), nil
}

func translatePOFile(ctx context.Context, tr pretranslate.Translator, data []byte, name string, o pretranslate.Options) ([]byte, error) {
	c, err := po.Parse(bytes.NewReader(data), safeName(name))
	if err != nil {
		return nil, badRequest("Invalid request: %v", err)
	}
	if _, err := pretranslate.PO(ctx, tr, c, o); err != nil {
		return nil, err
	}
	return written(c)
}

func translateXLIFFFile(ctx context.Context, tr pretranslate.Translator, data []byte, name string, o pretranslate.Options) ([]byte, error) {
	d, err := xliff.Parse(bytes.NewReader(data), safeName(name), o.Placeholders)
	if err != nil {
		return nil, badRequest("Invalid request: %v", err)
	}
	if _, err := pretranslate.XLIFF(ctx, tr, d, o); err != nil {
		return nil, err
	}
	return written(d)
}

func translateHTMLFile(ctx context.Context, tr pretranslate.Translator, data []byte, name string, o pretranslate.Options) ([]byte, error) {
	d, err := markup.Parse(data, safeName(name), placeholder.Options{})
	if err != nil {
		return nil, badRequest("Invalid request: %v", err)
	}
	if len(d.Units) == 0 {
		return data, nil
	}
	if _, err := pretranslate.HTML(ctx, tr, d, o); err != nil {
		return nil, err
	}
	return written(d)
}

func written(w io.WriterTo) ([]byte, error) {
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return nil, fmt.Errorf("writing the translated file: %w", err)
	}
	return b.Bytes(), nil
}

// handleDownload is LibreTranslate's GET /download_file/NAME: a file
// /translate_file made, as an attachment under the client's file name.
func (s *Server) handleDownload(w http.ResponseWriter, r *http.Request) {
	f := s.files.get(r.PathValue("name"))
	if f == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": fmt.Sprintf("no such file: a translated file is kept for %s (--file-ttl) while the store holds it (--file-store-bytes)", s.opt.FileTTL)})
		return
	}
	ct := mime.TypeByExtension(path.Ext(f.name))
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Disposition", `attachment; filename="`+f.name+`"`)
	w.Write(f.data)
}
