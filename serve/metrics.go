package serve

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the server's Prometheus metrics, in a registry of its own
// (with the Go runtime and process collectors: resident memory is
// process_resident_memory_bytes).
type metrics struct {
	reg                      *prometheus.Registry
	requests                 *prometheus.CounterVec
	latency                  *prometheus.HistogramVec
	lines, srcTokens, tokens prometheus.Counter
	batchLines, batchTokens  prometheus.Histogram
	decodeSeconds            prometheus.Histogram
	queue, active            prometheus.Gauge
	arena                    *prometheus.GaugeVec
}

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	f := func(c prometheus.Collector) { m.reg.MustRegister(c) }
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "strata_requests_total",
		Help: "Translation requests answered, by API and HTTP status (499: the client went away)."}, []string{"api", "code"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "strata_request_duration_seconds",
		Help:    "Time from a translation request's arrival to its answer, queueing included.",
		Buckets: prometheus.ExponentialBuckets(0.005, 2, 14)}, []string{"api"})
	m.lines = prometheus.NewCounter(prometheus.CounterOpts{Name: "strata_lines_total", Help: "Lines translated."})
	m.srcTokens = prometheus.NewCounter(prometheus.CounterOpts{Name: "strata_source_tokens_total",
		Help: "Source subword tokens translated (EOS included)."})
	m.tokens = prometheus.NewCounter(prometheus.CounterOpts{Name: "strata_generated_tokens_total",
		Help: "Tokens generated in the best hypotheses (EOS included)."})
	m.batchLines = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "strata_batch_lines",
		Help: "Lines per decoded batch.", Buckets: prometheus.ExponentialBuckets(1, 2, 10)})
	m.batchTokens = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "strata_batch_source_tokens",
		Help: "Source tokens per decoded batch.", Buckets: prometheus.ExponentialBuckets(8, 2, 11)})
	m.decodeSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "strata_decode_seconds",
		Help: "Time to decode one batch.", Buckets: prometheus.ExponentialBuckets(0.002, 2, 14)})
	m.queue = prometheus.NewGauge(prometheus.GaugeOpts{Name: "strata_queue_lines", Help: "Lines waiting for a batch."})
	m.active = prometheus.NewGauge(prometheus.GaugeOpts{Name: "strata_active_requests", Help: "Translation requests being answered."})
	m.arena = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "strata_decoder_arena_bytes",
		Help: "Memory each worker's decoding arenas hold after its last batch (in use or cached)."}, []string{"worker"})
	for _, c := range []prometheus.Collector{m.arena, m.requests, m.latency, m.lines, m.srcTokens, m.tokens,
		m.batchLines, m.batchTokens, m.decodeSeconds, m.queue, m.active,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{})} {
		f(c)
	}
	return m
}

// batch records one decoded batch.
func (m *metrics) batch(lines, srcTokens, tokens int, d time.Duration) {
	m.lines.Add(float64(lines))
	m.srcTokens.Add(float64(srcTokens))
	m.tokens.Add(float64(tokens))
	m.batchLines.Observe(float64(lines))
	m.batchTokens.Observe(float64(srcTokens))
	m.decodeSeconds.Observe(d.Seconds())
}
