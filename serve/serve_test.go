package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/model"
	"github.com/strata-nmt/strata/subword"
)

// testBundle is a random tiny model over a small vocabulary.
func testBundle(t *testing.T) *decode.Bundle {
	t.Helper()
	wc := subword.NewWordCounts()
	wc.AddLines([]string{"the cat sat on the mat", "die Katze sass auf der Matte", "a dog ran", "ein Hund rannte"}, 1)
	sw, _, err := subword.Learn(wc, subword.Options{NumMerges: 20})
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
	return &decode.Bundle{Model: m, Vocab: v, Seq: data.Sequencer{Scheme: data.TagSENCTDEC, Vocab: v}, ModelPath: "test"}
}

// testOptions are server options for the tiny model: short outputs.
func testOptions() Options {
	o := Defaults()
	o.Workers, o.Threads, o.MaxLines = 2, 1, 4
	o.Search.MaxLenA, o.Search.MaxLenB = 1, 3
	return o
}

// logBuffer collects the server's log.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

func newTestServer(t *testing.T, b *decode.Bundle, o Options) (*Server, *httptest.Server, *logBuffer) {
	t.Helper()
	var lb logBuffer
	s, err := New(b, o, newLogger(&lb))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })
	return s, ts, &lb
}

func postJSON(t *testing.T, url, body string) (int, map[string]any, http.Header) {
	t.Helper()
	resp, err := http.Post(url+"/translate", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: status %d, body %q is not JSON: %v", body, resp.StatusCode, raw, err)
	}
	return resp.StatusCode, out, resp.Header
}

// Answers hold one translation per line, word alignments, n-best lists and
// attention maps on request; bad requests get a 400 that names the problem.
func TestTranslateEndpoint(t *testing.T) {
	_, ts, lb := newTestServer(t, testBundle(t), testOptions())
	code, out, _ := postJSON(t, ts.URL, `{"text": ["the cat", "", "a dog"], "src_lang": "en", "tgt_lang": "de", "beam": 2}`)
	tr, ok := out["translations"].([]any)
	if code != 200 || !ok || len(tr) != 3 || tr[1] != "" {
		t.Fatalf("status %d, body %v", code, out)
	}
	for _, k := range []string{"alignments", "nbest", "attention", "output_lid"} {
		if _, ok := out[k]; ok {
			t.Errorf("%s without asking: %v", k, out)
		}
	}
	// word alignments on request, one per line ("" for the empty one; the
	// random test model may translate to nothing, which aligns to "")
	code, out, _ = postJSON(t, ts.URL, `{"text": ["the cat", "", "a dog"], "src_lang": "en", "tgt_lang": "de", "alignment": true}`)
	al, ok := out["alignments"].([]any)
	if code != 200 || !ok || len(al) != 3 || al[1] != "" || !regexp.MustCompile(`^(\d+-\d+( \d+-\d+)*)?$`).MatchString(al[0].(string)) {
		t.Fatalf("alignment request: status %d, body %v", code, out)
	}
	code, out, _ = postJSON(t, ts.URL, `{"text": ["the cat"], "src_lang": "en", "tgt_lang": "de", "beam": 3, "nbest": 3, "attention_layer": 0}`)
	nb, _ := out["nbest"].([]any)
	at, _ := out["attention"].([]any)
	if code != 200 || len(nb) != 1 || len(nb[0].([]any)) != 3 || len(at) != 1 {
		t.Fatalf("n-best and attention request: status %d, body %v", code, out)
	}
	a := at[0].(map[string]any)
	if w := a["weights"].([]any); len(w) != len(a["target"].([]any)) || len(w[0].([]any)) != len(a["source"].([]any)) {
		t.Errorf("attention map shape: %v", a)
	}
	long := strings.Repeat("x", 5000)
	for body, want := range map[string]string{
		`{"text": []}`: "at least one line",
		`{"text": ["a","b","c","d","e"], "src_lang": "en", "tgt_lang": "de"}`:                   "at most 4 (--max-lines)",
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "xx"}`:                                   "not one of the model's languages",
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "de", "beam": 17}`:                       "between 1 and 16 (--max-beam)",
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "de", "pivot": "en", "alignment": true}`: "pivot",
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "de", "attention_layer": 9}`:             "decoder layers",
		`{"text": ["a", "` + long + `"], "src_lang": "en", "tgt_lang": "de"}`:                   "line 2 is 5000 bytes long; this server takes at most 4096 bytes per line (--max-line-bytes)",
		`{"text": ["a\nb"], "src_lang": "en", "tgt_lang": "de"}`:                                "line break",
		`{"text": ["a"], "src_lang": "en", "tgt_lang": "de", "lid": true}`:                      "--lid-model",
		`{"txt": ["a"]}`: "unknown field",
		`not json`:       "missing q parameter", // not a JSON object: a form, LibreTranslate's
	} {
		code, out, _ := postJSON(t, ts.URL, body)
		if msg, _ := out["error"].(string); code != 400 || !strings.Contains(msg, want) {
			t.Errorf("%.60s: status %d, error %q, want 400 with %q", body, code, msg, want)
		}
	}
	code, out, _ = postJSON(t, ts.URL, `{"text": ["`+strings.Repeat("a ", 600<<10)+`"]}`)
	if msg, _ := out["error"].(string); code != 413 || !strings.Contains(msg, "--max-body-bytes") {
		t.Errorf("large body: status %d, body %v", code, out)
	}
	for path, want := range map[string]string{"/health": `"languages":["de","en"]`, "/ready": `"ready"`,
		"/languages": `{"code":"de","name":"German","targets":["de","en"]}`} {
		resp, err := http.Get(ts.URL + path)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("%s: %v %v", path, err, resp)
		}
		var buf bytes.Buffer
		buf.ReadFrom(resp.Body)
		resp.Body.Close()
		if !strings.Contains(buf.String(), want) {
			t.Errorf("%s: body %s, want %s", path, buf.String(), want)
		}
	}
	// one log line per request, without the text
	if n := strings.Count(lb.String(), "msg=request"); n < 10 {
		t.Errorf("%d request log lines:\n%s", n, lb.String())
	}
	if strings.Contains(lb.String(), "the cat") {
		t.Errorf("the log holds request text without --log-text:\n%s", lb.String())
	}
}

// translatorFor is what strata translate decodes with for a server's
// options and a request's beam.
func translatorFor(t *testing.T, b *decode.Bundle, o Options, beam int) *decode.Translator {
	t.Helper()
	so := o.Search
	so.Beam, so.Greedy = beam, beam == 1
	sr, err := b.Searcher(so)
	if err != nil {
		t.Fatal(err)
	}
	return decode.NewTranslator(b, sr)
}

// Concurrent requests decoded in shared batches get their own lines back,
// in order, identical to the translator's (strata translate's) output for
// the same options; a request longer than BatchRequestLines is split.
func TestBatchingKeepsOrderAndResults(t *testing.T) {
	b := testBundle(t)
	o := testOptions()
	o.Workers, o.MaxLines, o.BatchRequestLines = 1, 8, 3
	o.BatchWait = 300 * 1e6 // collect every request into few batches
	o.Search.MaxLenB = 6
	s, ts, _ := newTestServer(t, b, o)
	words := strings.Fields("the cat sat on mat a dog ran die Katze sass auf der Matte ein Hund rannte")
	reqs := make([][]string, 12)
	for i := range reqs {
		for k := 0; k < 1+i%8; k++ {
			n := 1 + (i*7+k*3)%9
			reqs[i] = append(reqs[i], strings.Join(words[(i+k)%len(words):][:min(n, len(words)-(i+k)%len(words))], " "))
		}
	}
	got := make([][]any, len(reqs))
	var wg sync.WaitGroup
	for i, lines := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(Request{Text: lines, SrcLang: "en", TgtLang: "de", Beam: 1 + i%2})
			code, out, _ := postJSON(t, ts.URL, string(body))
			if code != 200 {
				t.Errorf("request %d: status %d %v", i, code, out)
				return
			}
			got[i], _ = out["translations"].([]any)
		}()
	}
	wg.Wait()
	for i, lines := range reqs {
		want, err := translatorFor(t, b, o, 1+i%2).Lines(lines, "en", "de", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(got[i]) != len(want) {
			t.Fatalf("request %d: %d translations for %d lines", i, len(got[i]), len(lines))
		}
		for k := range want {
			if got[i][k] != want[k].Best() {
				t.Errorf("request %d line %d %q: served %q, translate gives %q", i, k, lines[k], got[i][k], want[k].Best())
			}
		}
	}
	// batches held lines of several requests: fewer batches than requests
	batches, lines := histogramCount(t, s, "strata_batch_lines")
	if batches >= len(reqs) || lines == 0 {
		t.Errorf("%d batches for %d requests (%v lines): no batching across requests", batches, len(reqs), lines)
	}
}

// gauge is the value of a gauge in /metrics (the first series).
func gauge(t *testing.T, s *Server, name string) float64 {
	t.Helper()
	f := scrape(t, s)[name]
	if f == nil || len(f.Metric) == 0 {
		t.Fatalf("no %s in /metrics", name)
	}
	return f.Metric[0].Gauge.GetValue()
}

// Requests cycling beams 1-16 leave one decoder per worker, whose arenas
// give back the memory of the large beams once smaller ones follow.
func TestMixedBeamsMemory(t *testing.T) {
	o := testOptions()
	o.Workers, o.MaxLines, o.Off = 1, 16, true
	s, ts, _ := newTestServer(t, testBundle(t), o)
	lines := `["the cat sat on the mat", "a dog ran", "die Katze", "the mat", "a cat", "der Hund", "ein Hund rannte", "the dog sat",
		"the cat sat on the mat", "a dog ran", "die Katze", "the mat", "a cat", "der Hund", "ein Hund rannte", "the dog sat"]`
	for beam := 1; beam <= 16; beam++ {
		postJSON(t, ts.URL, `{"text": `+lines+`, "src_lang": "en", "tgt_lang": "de", "beam": `+fmt.Sprint(beam)+`}`)
	}
	large := gauge(t, s, "strata_decoder_arena_bytes")
	for i := 0; i < 40; i++ {
		postJSON(t, ts.URL, `{"text": ["the cat sat", "a dog"], "src_lang": "en", "tgt_lang": "de", "beam": 1}`)
	}
	if small := gauge(t, s, "strata_decoder_arena_bytes"); small > large/2 {
		t.Errorf("decoder arenas hold %.0f kB after beam-1 requests, %.0f kB after beams up to 16", small/1024, large/1024)
	}
}

// A long request is decoded in turns with the others: a short request sent
// after it is answered first.
func TestLongRequestDoesNotStarveShort(t *testing.T) {
	o := testOptions()
	o.Workers, o.MaxLines, o.BatchRequestLines, o.BatchWait = 1, 64, 2, 0
	o.Search.MaxLenB = 8
	s, ts, _ := newTestServer(t, testBundle(t), o)
	long := make([]string, 64)
	for i := range long {
		long[i] = "the cat sat on the mat and a dog ran"
	}
	body, _ := json.Marshal(Request{Text: long, SrcLang: "en", TgtLang: "de", Beam: 4})
	done := make(chan string, 2)
	go func() { postJSON(t, ts.URL, string(body)); done <- "long" }()
	waitFor(t, "the long request to be queued", func() bool { return s.bat.queuedLines() > 0 })
	go func() {
		postJSON(t, ts.URL, `{"text": ["a dog"], "src_lang": "en", "tgt_lang": "de", "beam": 4}`)
		done <- "short"
	}()
	if first := <-done; first != "short" {
		t.Errorf("the long request finished before the short one sent after it")
	}
	<-done
}
