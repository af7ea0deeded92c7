package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/langid"
)

// A model trained en→de only serves en→de: the reverse and copying are
// refused on both APIs, naming the trained directions, and /languages
// lists only what is allowed.
func TestServerRefusesUntrainedDirections(t *testing.T) {
	b := testBundle(t)
	var err error
	if b.Directions, err = data.ParseDirections([]string{"en-de"}); err != nil {
		t.Fatal(err)
	}
	_, ts, _ := newTestServer(t, b, testOptions())
	for _, body := range []string{
		`{"text": ["a"], "src_lang": "de", "tgt_lang": "en"}`,
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "en"}`,
		`{"q": "a", "source": "de", "target": "en"}`,
		`{"q": "a", "source": "de", "target": "de"}`,
	} {
		code, out, _ := postJSON(t, ts.URL, body)
		if msg, _ := out["error"].(string); code != 400 || !strings.Contains(msg, "en→de") {
			t.Errorf("%s: status %d, error %q, want 400 naming en→de", body, code, msg)
		}
	}
	resp, err := http.PostForm(ts.URL+"/translate", url.Values{"q": {"a"}, "source": {"de"}, "target": {"en"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("LibreTranslate form de→en: status %d, want 400", resp.StatusCode)
	}
	if code, out, _ := postJSON(t, ts.URL, `{"q": "a", "source": "en", "target": "de"}`); code != 200 {
		t.Errorf("en→de: status %d, %v", code, out)
	}
	resp, err = http.Get(ts.URL + "/languages")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	resp.Body.Close()
	var langs []libreLanguage
	if err := json.Unmarshal(buf.Bytes(), &langs); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, l := range langs {
		got[l.Code] = strings.Join(l.Targets, ",")
	}
	if got["en"] != "de" || got["de"] != "" {
		t.Errorf("/languages %s: want en with target de only, de with none", buf.String())
	}
}

// /detect chooses among the languages the model was trained to read.
func TestDetectAmongTrainedSources(t *testing.T) {
	b := testBundle(t)
	b.Directions, _ = data.ParseDirections([]string{"en-de"})
	o := testOptions()
	o.LID = langid.NewFallback()
	_, ts, _ := newTestServer(t, b, o)
	resp, err := http.Post(ts.URL+"/detect", "application/json", strings.NewReader(`{"q": "Datei öffnen und speichern"}`))
	if err != nil {
		t.Fatal(err)
	}
	var out []detected
	err = json.NewDecoder(resp.Body).Decode(&out)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range out {
		if d.Language != "en" {
			t.Errorf("detected %q, which the en→de model does not read", d.Language)
		}
	}
}
