package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// jsonObject returns the fields of body when it is one JSON object. A
// body is told apart by what it is, not by its Content-Type: `curl -d`
// labels a JSON body as a form, and clients of LibreTranslate send forms
// and JSON alike.
func jsonObject(body []byte) (map[string]json.RawMessage, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) != nil || fields == nil {
		return nil, false
	}
	return fields, true
}

// checkJSONSyntax refuses a body that starts as a JSON object but is not
// valid JSON, with the parser's error and where it stopped. Without it
// such a body would be read as a form and refused for a missing q, which
// sends the client looking for the wrong mistake. A form never starts
// with "{" (a URL-encoded form escapes it).
func checkJSONSyntax(r *http.Request, body []byte) error {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		return nil
	}
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil
	}
	var v any
	err := json.Unmarshal(body, &v)
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return badRequest("request body is not valid JSON: %v (at byte %d)", err, se.Offset)
	case err != nil:
		return badRequest("request body is not valid JSON: %v", err)
	}
	return nil
}

// isLibre tells a LibreTranslate request (JSON with "q", or anything that
// is not a JSON object: a form) from strata's own (a JSON object without
// "q", normally with "text").
func isLibre(body []byte) bool {
	fields, ok := jsonObject(body)
	if !ok {
		return true
	}
	_, q := fields["q"]
	return q
}

// formValues reads a form body: multipart when the request says so (its
// boundary is in the header), URL-encoded otherwise.
func formValues(r *http.Request, body []byte) (url.Values, error) {
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" {
		form, err := multipart.NewReader(bytes.NewReader(body), params["boundary"]).ReadForm(int64(len(body)) + 1)
		if err != nil {
			return nil, badRequest("Invalid request: %v", err)
		}
		return form.Value, nil
	}
	f, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, badRequest("Invalid request: %v", err)
	}
	return f, nil
}

// parseLibre reads q as a list of texts and whether it was one string.
func parseLibre(r *http.Request, body []byte) (req libreRequest, texts []string, single bool, err error) {
	if _, ok := jsonObject(body); !ok {
		return parseLibreForm(r, body)
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return req, nil, false, badRequest("Invalid request: %v", err)
	}
	texts, single, err = libreTexts(req.Q)
	return req, texts, single, err
}

// libreTexts reads JSON q: a string or an array of strings.
func libreTexts(q json.RawMessage) ([]string, bool, error) {
	var one string
	var texts []string
	switch {
	case len(q) == 0 || string(q) == "null":
		return nil, false, badRequest("Invalid request: missing q parameter")
	case json.Unmarshal(q, &one) == nil:
		return []string{one}, true, nil
	case json.Unmarshal(q, &texts) == nil:
		return texts, false, nil
	}
	return nil, false, badRequest("Invalid request: q must be a string or an array of strings")
}

func parseLibreForm(r *http.Request, body []byte) (req libreRequest, texts []string, single bool, err error) {
	f, err := formValues(r, body)
	if err != nil {
		return req, nil, false, err
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

// splitBreaks cuts a text into lines at "\r\n", "\n" and "\r", and returns
// the breaks too (breaks[i] follows lines[i]), so that the translation
// can give each break back as it came: browsers send a textarea's text
// with "\r\n".
func splitBreaks(t string) (lines, breaks []string) {
	for {
		i := strings.IndexAny(t, "\r\n")
		if i < 0 {
			return append(lines, t), breaks
		}
		n := 1
		if t[i] == '\r' && i+1 < len(t) && t[i+1] == '\n' {
			n = 2
		}
		lines, breaks = append(lines, t[:i]), append(breaks, t[i:i+n])
		t = t[i+n:]
	}
}

// joinBreaks is the inverse of splitBreaks.
func joinBreaks(lines, breaks []string) string {
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		if i < len(breaks) {
			b.WriteString(breaks[i])
		}
	}
	return b.String()
}
