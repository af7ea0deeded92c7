package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/langid"
)

// A JSON body is JSON whatever its Content-Type says: `curl -d` sends
// application/x-www-form-urlencoded, and the documented examples are sent
// that way. "text" is strata's API, "q" LibreTranslate's.
func TestBodyKindByContent(t *testing.T) {
	o := testOptions()
	o.LID = langid.NewFallback()
	_, ts, _ := newTestServer(t, testBundle(t), o)
	for _, body := range []string{
		`{"text": ["the cat sat", "a dog ran"], "src_lang": "en", "tgt_lang": "de"}`,
		`{"q": "the cat sat", "source": "en", "target": "de"}`,
		`{"q": ["the cat sat", "a dog ran"], "source": "en", "target": "de", "alternatives": 2}`,
		`q=the+cat+sat&source=en&target=de`,
	} {
		resp, err := http.Post(ts.URL+"/translate", "application/x-www-form-urlencoded", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s sent as a form: status %d", body, resp.StatusCode)
		}
	}
}

// LibreTranslate text with CRLF, CR or LF breaks is translated line by
// line, each break given back as it came.
func TestLibreLineBreaks(t *testing.T) {
	_, ts, _ := newTestServer(t, testBundle(t), testOptions())
	_, own, _ := postJSON(t, ts.URL, `{"text": ["the cat sat", "a dog ran", "the mat"], "src_lang": "en", "tgt_lang": "de"}`)
	w := own["translations"].([]any)
	for q, want := range map[string]string{
		`the cat sat\r\na dog ran`:         w[0].(string) + "\r\n" + w[1].(string),
		`the cat sat\ra dog ran\nthe mat`:  w[0].(string) + "\r" + w[1].(string) + "\n" + w[2].(string),
		`the cat sat\r\n\r\na dog ran\r\n`: w[0].(string) + "\r\n\r\n" + w[1].(string) + "\r\n",
	} {
		code, out, _ := postJSON(t, ts.URL, `{"q": "`+q+`", "source": "en", "target": "de"}`)
		if code != 200 || out["translatedText"] != want {
			t.Errorf("q %q: status %d, body %v, want %q", q, code, out, want)
		}
	}
	resp, err := http.Post(ts.URL+"/translate", "application/x-www-form-urlencoded",
		strings.NewReader("q=the%20cat%20sat%0D%0Aa%20dog%20ran&source=en&target=de"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("form with %%0D%%0A: status %d", resp.StatusCode)
	}
	if l, b := splitBreaks("a\r\nb\rc\n"); strings.Join(l, "|") != "a|b|c|" || strings.Join(b, "|") != "\r\n|\r|\n" {
		t.Errorf("splitBreaks: %q %q", l, b)
	}
}

// Client errors name the field the client sent, not the beam the server
// derived from it.
func TestSearchFieldErrors(t *testing.T) {
	_, ts, _ := newTestServer(t, testBundle(t), testOptions())
	for body, want := range map[string]string{
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "de", "nbest": 20}`:           "nbest 20",
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "de", "nbest": 4, "beam": 2}`: "nbest 4: must be at most beam 2",
		`{"q": "a", "source": "en", "target": "de", "alternatives": 20}`:             "alternatives 20",
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "de", "beam": 17}`:            "beam 17",
	} {
		code, out, _ := postJSON(t, ts.URL, body)
		if msg, _ := out["error"].(string); code != 400 || !strings.Contains(msg, want) {
			t.Errorf("%s: status %d, error %q, want 400 with %q", body, code, msg, want)
		}
	}
}

// Options out of range refuse to start the server, naming the flags.
func TestOptionsRefusedAtStart(t *testing.T) {
	b := testBundle(t)
	for name, c := range map[string]struct {
		set  func(*Options)
		want string
	}{
		"beam above max-beam": {func(o *Options) { o.Search.Beam = 20 }, "--beam 20 is larger than --max-beam 16"},
		"negative decoders":   {func(o *Options) { o.Workers = -1 }, "--decoders -1"},
		"max-beam 0":          {func(o *Options) { o.MaxBeam = 0 }, "--max-beam 0"},
		"timeout 0s":          {func(o *Options) { o.Timeout = 0 }, "--timeout 0s"},
		"max-src-len":         {func(o *Options) { o.MaxSrcTokens = 100000 }, "--max-src-len 100000"},
	} {
		o := testOptions()
		c.set(&o)
		s, err := New(b, o, nil)
		if err == nil {
			s.Close()
			t.Errorf("%s: the server started", name)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}

// A body that starts as a JSON object but is cut short or misspelt is
// refused for its JSON, saying where the parser stopped, on /translate and
// /detect alike, whatever Content-Type it came with: not read as a form
// and refused for a missing q.
func TestMalformedJSONNamesTheSyntaxError(t *testing.T) {
	o := testOptions()
	o.LID = langid.NewFallback()
	_, ts, _ := newTestServer(t, testBundle(t), o)
	for _, c := range []struct{ path, ct, body string }{
		{"/translate", "application/x-www-form-urlencoded", `{"text": [`},
		{"/translate", "application/json", `{"q": "x", "source": "en", "target": "de"`},
		{"/translate", "application/json", ` {"text": ["a",], "src_lang": "en", "tgt_lang": "de"}`},
		{"/detect", "application/json", `{"q": "x"`},
	} {
		resp, err := http.Post(ts.URL+c.path, c.ct, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		msg, _ := out["error"].(string)
		if resp.StatusCode != 400 || !strings.Contains(msg, "not valid JSON") || !strings.Contains(msg, "at byte") {
			t.Errorf("%s %q: status %d, error %q, want 400 naming the JSON syntax error", c.path, c.body, resp.StatusCode, msg)
		}
	}
}
