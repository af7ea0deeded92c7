package serve

import (
	"net/http"
	"net/http/httptest"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// scrape parses the server's /metrics with the Prometheus text parser.
func scrape(t *testing.T, s *Server) map[string]*dto.MetricFamily {
	t.Helper()
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(rec.Body)
	if err != nil {
		t.Fatalf("/metrics is not Prometheus text: %v", err)
	}
	return fams
}

// histogramCount is a histogram's observation count and sum.
func histogramCount(t *testing.T, s *Server, name string) (int, float64) {
	t.Helper()
	f := scrape(t, s)[name]
	if f == nil || len(f.Metric) == 0 || f.Metric[0].Histogram == nil {
		t.Fatalf("no histogram %s in /metrics", name)
	}
	h := f.Metric[0].Histogram
	return int(h.GetSampleCount()), h.GetSampleSum()
}

// /metrics parses as Prometheus text and counts requests by status, lines,
// tokens, batches and latency.
func TestMetrics(t *testing.T) {
	s, ts, _ := newTestServer(t, testBundle(t), testOptions())
	postJSON(t, ts.URL, `{"text": ["the cat", "a dog"], "src_lang": "en", "tgt_lang": "de"}`)
	postJSON(t, ts.URL, `{"text": ["a"], "src_lang": "en", "tgt_lang": "xx"}`)
	fams := scrape(t, s)
	codes := map[string]float64{}
	for _, m := range fams["strata_requests_total"].GetMetric() {
		for _, l := range m.Label {
			if l.GetName() == "code" {
				codes[l.GetValue()] = m.Counter.GetValue()
			}
			if l.GetName() == "api" && l.GetValue() != "strata" {
				t.Errorf("strata's API counted as %q", l.GetValue())
			}
		}
	}
	if codes["200"] != 1 || codes["400"] != 1 {
		t.Errorf("requests by status %v, want one 200 and one 400", codes)
	}
	if v := fams["strata_lines_total"].GetMetric()[0].Counter.GetValue(); v != 2 {
		t.Errorf("strata_lines_total %v, want 2", v)
	}
	for _, name := range []string{"strata_source_tokens_total", "strata_generated_tokens_total", "strata_queue_lines",
		"strata_active_requests", "strata_decode_seconds", "strata_batch_source_tokens",
		"strata_request_duration_seconds", "process_resident_memory_bytes", "go_goroutines"} {
		if fams[name] == nil {
			t.Errorf("no %s in /metrics", name)
		}
	}
	if n, _ := histogramCount(t, s, "strata_request_duration_seconds"); n != 2 {
		t.Errorf("latency histogram counts %d requests, want 2", n)
	}
}
