package serve

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/langid"
)

// LibreTranslate's request shapes (q a string or an array, JSON or a form)
// get LibreTranslate's answers, with the translations of strata's API;
// its errors are {"error": ...} with status 400.
func TestLibreTranslateAPI(t *testing.T) {
	_, ts, _ := newTestServer(t, testBundle(t), testOptions())
	_, own, _ := postJSON(t, ts.URL, `{"text": ["the cat sat", "a dog ran"], "src_lang": "en", "tgt_lang": "de"}`)
	want := own["translations"].([]any)
	if want[0] == "" {
		t.Fatal("the test model translates to nothing")
	}
	code, out, _ := postJSON(t, ts.URL, `{"q": "the cat sat", "source": "en", "target": "de", "format": "text", "api_key": ""}`)
	if code != 200 || out["translatedText"] != want[0] || len(out) != 1 {
		t.Errorf("q a string: status %d, body %v, want translatedText %q", code, out, want[0])
	}
	code, out, _ = postJSON(t, ts.URL, `{"q": ["the cat sat", "a dog ran"], "source": "en", "target": "de"}`)
	if got, _ := out["translatedText"].([]any); code != 200 || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("q an array: status %d, body %v, want %v", code, out, want)
	}
	// a text of several lines: each translated, the line break kept
	code, out, _ = postJSON(t, ts.URL, `{"q": "the cat sat\na dog ran", "source": "en", "target": "de", "alternatives": 2}`)
	alts, _ := out["alternatives"].([]any)
	if code != 200 || out["translatedText"] != want[0].(string)+"\n"+want[1].(string) || len(alts) != 2 {
		t.Errorf("two lines with alternatives: status %d, body %v", code, out)
	}
	form := url.Values{"q": {"the cat sat"}, "source": {"en"}, "target": {"de"}}
	resp, err := http.PostForm(ts.URL+"/translate", form)
	if err != nil {
		t.Fatal(err)
	}
	var fo map[string]any
	json.NewDecoder(resp.Body).Decode(&fo)
	resp.Body.Close()
	if resp.StatusCode != 200 || fo["translatedText"] != want[0] {
		t.Errorf("form request: status %d, body %v", resp.StatusCode, fo)
	}
	var mp bytes.Buffer
	mw := multipart.NewWriter(&mp)
	for k, v := range map[string]string{"q": "the cat sat", "source": "en", "target": "de"} {
		mw.WriteField(k, v)
	}
	mw.Close()
	resp, err = http.Post(ts.URL+"/translate", mw.FormDataContentType(), &mp)
	if err != nil {
		t.Fatal(err)
	}
	fo = nil
	json.NewDecoder(resp.Body).Decode(&fo)
	resp.Body.Close()
	if resp.StatusCode != 200 || fo["translatedText"] != want[0] {
		t.Errorf("multipart request: status %d, body %v", resp.StatusCode, fo)
	}
	for body, msg := range map[string]string{
		`{"q": "a", "target": "de"}`:                                                             "missing source",
		`{"q": "a", "source": "en"}`:                                                             "missing target",
		`{"q": null, "source": "en", "target": "de"}`:                                            "missing q",
		`{"q": 3, "source": "en", "target": "de"}`:                                               "string or an array",
		`{"q": "a", "source": "en", "target": "xx"}`:                                             "not one of the model's languages",
		`{"q": "a", "source": "en", "target": "de", "format": "md"}`:                             `format "md"`,
		`{"q": "<p>a</p>", "source": "en", "target": "de", "format": "html", "alternatives": 1}`: "alternatives",
		`{"q": "a", "source": "auto", "target": "de"}`:                                           "--lid-model",
	} {
		code, out, _ := postJSON(t, ts.URL, body)
		if e, _ := out["error"].(string); code != 400 || !strings.Contains(e, msg) {
			t.Errorf("%s: status %d, body %v, want 400 with %q", body, code, out, msg)
		}
	}
}

// source "auto" identifies the language with the LID model and says so in
// detectedLanguage; "lid" in strata's API identifies each output's.
func TestLibreAutoSource(t *testing.T) {
	o := testOptions()
	o.LID = langid.NewFallback()
	_, ts, _ := newTestServer(t, testBundle(t), o)
	code, out, _ := postJSON(t, ts.URL, `{"q": "the cat sat on the mat while the dog ran away from the house", "source": "auto", "target": "de"}`)
	det, _ := out["detectedLanguage"].(map[string]any)
	if code != 200 || det["language"] != "en" || det["confidence"].(float64) <= 0 {
		t.Errorf("source auto: status %d, body %v", code, out)
	}
	code, out, _ = postJSON(t, ts.URL, `{"text": ["the cat sat", ""], "src_lang": "en", "tgt_lang": "de", "lid": true}`)
	lid, _ := out["output_lid"].([]any)
	if code != 200 || len(lid) != 2 || lid[1] != nil {
		t.Errorf("output language ID: status %d, body %v", code, out)
	}
}
