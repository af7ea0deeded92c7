package serve

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzDecodeRequest: any POST /translate body, as JSON, a form or a
// multipart form, is told apart (isLibre) and decoded, strata's shape
// ("text") strictly and LibreTranslate's ("q": a string or a list) as
// parseLibre does, into a request or an error with a message; never a
// panic. (Checking the lines against the server's limits, validate, needs
// a model and is covered by the handler tests.)
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"text": ["Hello world", "the cat"], "src_lang": "en", "tgt_lang": "de", "beam": 5, "pivot": ""}`,
		`{"text": ["x"], "src_lang": "en", "tgt_lang": "de", "alignment": true, "nbest": 2, "attention_layer": 0, "lid": true}`,
		`{"q": ["Hello world", "a\nb"], "source": "en", "target": "de", "format": "text", "alternatives": 2}`,
		`{"q": "Hello world", "source": "auto", "target": "de", "api_key": ""}`,
		`{"q": null}`, `{"q": 5}`, `{"text": [], "beam": -1}`, `{"text": ["a"]} {"text": ["b"]}`,
		"{\"text\": [\"\xff\xfe\"], \"beam\": 1e999}",
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Add([]byte("q=Hello+world&q=two&source=en&target=de&alternatives=1"), uint8(1))
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\nHallo\r\n--b\r\nContent-Disposition: form-data; name=\"source\"\r\n\r\nde\r\n--b--\r\n"), uint8(2))
	types := []string{"application/json", "application/x-www-form-urlencoded", "multipart/form-data; boundary=b", ""}
	f.Fuzz(func(t *testing.T, body []byte, ct uint8) {
		r := httptest.NewRequest("POST", "/translate", bytes.NewReader(body))
		if c := types[int(ct)%len(types)]; c != "" {
			r.Header.Set("Content-Type", c)
		}
		if isLibre(body) {
			req, texts, single, err := parseLibre(r, body)
			if err != nil {
				if err.Error() == "" {
					t.Fatal("empty error message")
				}
				return
			}
			if len(texts) == 0 && single {
				t.Fatalf("one text and none: %+v", req)
			}
			return
		}
		var req Request
		if err := decodeStrict(body, &req); err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if _, err := json.Marshal(req); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzFileForm: any /translate_file body gives the file's name, content
// and languages, or a 400 with a message; the name any client sends is
// made safe (a non-empty base name of letters, digits, '.', '-', '_', not
// starting with a dot, at most 100 bytes).
func FuzzFileForm(f *testing.F) {
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../a b.po\"\r\n\r\nmsgid \"x\"\r\n--b\r\nContent-Disposition: form-data; name=\"source\"\r\n\r\nen\r\n--b\r\nContent-Disposition: form-data; name=\"target\"\r\n\r\nde\r\n--b--\r\n"))
	f.Add([]byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\"\r\n\r\n\r\n--b--\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		r := httptest.NewRequest("POST", "/translate_file", bytes.NewReader(body))
		r.Header.Set("Content-Type", "multipart/form-data; boundary=b")
		name, _, src, tgt, err := fileForm(r, body)
		if err != nil {
			if he, ok := err.(*httpError); !ok || he.code != 400 || he.msg == "" {
				t.Fatalf("error %v", err)
			}
			return
		}
		if name == "" || src == "" || tgt == "" {
			t.Fatalf("name %q source %q target %q", name, src, tgt)
		}
		s := safeName(name)
		if s == "" || len(s) > 100 || strings.HasPrefix(s, ".") || strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != "" {
			t.Fatalf("safeName(%q) = %q", name, s)
		}
	})
}
