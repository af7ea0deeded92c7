package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/internal/sharedtest"
	"github.com/strata-nmt/strata/langid"
)

// lid176 is fastText's lid.176 from ../shared, or the test is skipped.
func lid176(t *testing.T) langid.Detector {
	t.Helper()
	m, err := langid.Load(sharedtest.Path(t, "models/lid.176.ftz"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// source "auto" picks the most probable of the model's languages: the
// pure-Go identifier (the server's when lid.176 is absent) rates a short
// English line Norwegian Bokmål first, which an en/de model does not
// read. The request is the npm libretranslate client's: JSON with format
// and an empty apiKey.
func TestAutoSourceAmongModelLanguages(t *testing.T) {
	o := testOptions()
	o.LID = langid.NewFallback()
	if p := o.LID.Predict("Save changes before closing?", 1, 0); len(p) == 0 || p[0].Lang() == "en" {
		t.Fatalf("the identifier's overall best is %v: the test needs another language first", p)
	}
	_, ts, _ := newTestServer(t, testBundle(t), o)
	code, out, _ := postJSON(t, ts.URL, `{"q": "Save changes before closing?", "source": "auto", "target": "de", "format": "text", "apiKey": ""}`)
	det, _ := out["detectedLanguage"].(map[string]any)
	c, _ := det["confidence"].(float64)
	if code != 200 || det["language"] != "en" || c <= 0 || c > 100 || c != float64(int(c)) {
		t.Errorf("npm client's request: status %d, body %v", code, out)
	}
	// a batch: one detection, repeated for each text as LibreTranslate does
	code, out, _ = postJSON(t, ts.URL, `{"q": ["Save changes before closing?", "Open the file."], "source": "auto", "target": "de"}`)
	dets, _ := out["detectedLanguage"].([]any)
	if code != 200 || len(dets) != 2 || dets[0].(map[string]any)["language"] != "en" {
		t.Errorf("batch: status %d, body %v", code, out)
	}
	// none of the model's languages is probable at all: refused
	code, out, _ = postJSON(t, ts.URL, `{"q": "这是一个中文句子，不是英语也不是德语。", "source": "auto", "target": "de"}`)
	if e, _ := out["error"].(string); code != 400 || !strings.Contains(e, "none of the model's source languages") {
		t.Errorf("Chinese text: status %d, body %v", code, out)
	}
}

// POST /detect answers as LibreTranslate's: an array of {confidence,
// language}, most probable first, among the model's languages, for JSON
// and form bodies; a missing q is a 400.
func TestDetectEndpoint(t *testing.T) {
	o := testOptions()
	o.LID = lid176(t)
	_, ts, _ := newTestServer(t, testBundle(t), o)
	for _, c := range []struct{ ct, body string }{
		{"application/json", `{"q": "Save changes before closing?", "api_key": ""}`},
		{"application/x-www-form-urlencoded", `q=Save+changes+before+closing%3F`},
	} {
		resp, err := http.Post(ts.URL+"/detect", c.ct, strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		var out []detected
		err = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || len(out) == 0 || out[0].Language != "en" || out[0].Confidence <= 0 {
			t.Errorf("%s: status %d, %v, %v", c.body, resp.StatusCode, out, err)
		}
		for _, d := range out {
			if d.Language != "en" && d.Language != "de" {
				t.Errorf("%s: %q is not one of the model's languages", c.body, d.Language)
			}
		}
	}
	resp, err := http.Post(ts.URL+"/detect", "application/json", strings.NewReader(`{"api_key": ""}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("no q: status %d", resp.StatusCode)
	}
}
