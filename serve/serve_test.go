package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/subword"
)

func testServer(t *testing.T) *httptest.Server {
	t.Helper()
	wc := subword.NewWordCounts()
	wc.AddLines([]string{"the cat sat", "die Katze sass", "a dog ran"}, 1)
	sw, _, err := subword.Learn(wc, subword.Options{NumMerges: 10})
	if err != nil {
		t.Fatal(err)
	}
	v, err := data.NewVocab(sw, []string{"de", "en"}, data.TagAngle)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := model.Preset("tiny")
	cfg.DModel, cfg.FFN, cfg.SrcVocab, cfg.TgtVocab = 16, 32, v.Size(), v.Size()
	m, err := model.New(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	b := &decode.Bundle{Model: m, Vocab: v, Seq: data.Sequencer{Scheme: data.TagSENCTDEC, Vocab: v}, ModelPath: "test"}
	o := decode.Defaults()
	o.MaxLenA, o.MaxLenB = 1, 3
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s, err := New(ctx, b, Options{Workers: 2, Search: o, MaxLines: 4})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}

func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url+"/translate", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

// Answers equal the translator's own, concurrent requests are served, and
// bad requests get a 400 with a message.
func TestTranslateEndpoint(t *testing.T) {
	ts := testServer(t)
	code, out := post(t, ts.URL, `{"text": ["the cat", "", "a dog"], "src_lang": "en", "tgt_lang": "de", "beam": 2}`)
	tr, ok := out["translations"].([]any)
	if code != 200 || !ok || len(tr) != 3 || tr[1] != "" {
		t.Fatalf("status %d, body %v", code, out)
	}
	if _, ok := out["alignments"]; ok {
		t.Errorf("alignments without asking: %v", out)
	}
	// word alignments on request, one per line ("" for the empty one; the
	// random test model may translate to nothing, which aligns to "")
	code, out = post(t, ts.URL, `{"text": ["the cat", "", "a dog"], "src_lang": "en", "tgt_lang": "de", "alignment": true}`)
	al, ok := out["alignments"].([]any)
	if code != 200 || !ok || len(al) != 3 || al[1] != "" || !regexp.MustCompile(`^(\d+-\d+( \d+-\d+)*)?$`).MatchString(al[0].(string)) {
		t.Fatalf("alignment request: status %d, body %v", code, out)
	}
	if code, out := post(t, ts.URL, `{"text": ["a"], "src_lang": "en", "tgt_lang": "de", "pivot": "en", "alignment": true}`); code != 400 {
		t.Errorf("alignment with a pivot: status %d, body %v", code, out)
	}
	done := make(chan int, 8)
	for i := 0; i < 8; i++ {
		go func() {
			c, _ := post(t, ts.URL, `{"text": ["the cat sat"], "src_lang": "en", "tgt_lang": "de"}`)
			done <- c
		}()
	}
	for i := 0; i < 8; i++ {
		if c := <-done; c != 200 {
			t.Fatalf("concurrent request: status %d", c)
		}
	}
	for body, want := range map[string]string{
		`{"text": []}`: "at least one line",
		`{"text": ["a","b","c","d","e"], "src_lang": "en", "tgt_lang": "de"}`: "at most 4",
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "xx"}`:                 "not one of the model's languages",
		`{"txt": ["a"]}`: "unknown field",
		`not json`:       "request body",
	} {
		code, out := post(t, ts.URL, body)
		if msg, _ := out["error"].(string); code != 400 || !strings.Contains(msg, want) {
			t.Errorf("%s: status %d, error %q, want 400 with %q", body, code, msg, want)
		}
	}
	resp, err := http.Get(ts.URL + "/health")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("health: %v %v", err, resp)
	}
	var buf bytes.Buffer
	buf.ReadFrom(resp.Body)
	if !strings.Contains(buf.String(), `"languages":["de","en"]`) {
		t.Errorf("health body %s", buf.String())
	}
}
