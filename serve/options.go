// Package serve is strata's translation server: an HTTP API over a loaded
// model with dynamic batching across requests (lines of concurrent requests
// with the same direction and search options are decoded together), bounded
// queues, deadlines and body sizes, a graceful drain on shutdown, Prometheus
// metrics, a LibreTranslate-compatible endpoint and a page to try it.
// docs/serving.md describes the API and every option.
package serve

import (
	"fmt"
	"time"

	"github.com/strata-nmt/strata/decode"
	"github.com/strata-nmt/strata/langid"
)

// Options configure a Server. Zero values take the defaults of Defaults.
type Options struct {
	// Workers decoders run in parallel, each with Threads kernel threads.
	// Zero Workers: one decoder per core, each single-threaded (cores /
	// Threads of them when Threads is set), which decoded the most lines
	// per second under load (docs/performance.md); zero Threads: the
	// cores divided among the Workers.
	Workers int
	Threads int
	Search  decode.Options // default search; requests may change beam and n-best

	// Batching. BatchTokens is the source-token budget of a batch; a batch
	// is decoded when it is full or its oldest line has waited BatchWait.
	// Off decodes each request on its own (one request per batch, no wait).
	BatchTokens int
	BatchWait   time.Duration
	Off         bool
	// BatchRequestLines caps the lines one request puts in a batch, so a
	// long request is split over batches and does not starve short ones.
	BatchRequestLines int
	// MaxRows bounds decoder rows (sentences × beam) per decoding batch,
	// which bounds the decoder caches whatever the beam.
	MaxRows int
	// MaxStateTokens bounds decoder rows × output positions per decoding
	// batch, the size of the decoder's key/value caches, whatever the
	// sentence lengths.
	MaxStateTokens int

	// Bounds.
	QueueLines   int           // lines waiting to be decoded; more answer 503
	MaxLines     int           // lines per request
	MaxLineLen   int           // bytes per line
	MaxBody      int64         // bytes per request body
	MaxBeam      int           // largest beam a request may ask for
	Timeout      time.Duration // per-request deadline, queueing included
	DrainTimeout time.Duration // how long shutdown waits for requests

	// LID identifies the language of outputs (nil: the page shows none).
	LID langid.Detector
	// LogText puts request and output text in the request log.
	LogText bool
}

// Defaults are the server defaults documented in docs/serving.md.
func Defaults() Options {
	o := Options{
		Search:      decode.Defaults(),
		BatchTokens: 2048, BatchWait: 5 * time.Millisecond, BatchRequestLines: 32, MaxRows: 128, MaxStateTokens: 8192,
		QueueLines: 4096, MaxLines: 256, MaxLineLen: 4096, MaxBody: 1 << 20, MaxBeam: 16,
		Timeout: 60 * time.Second, DrainTimeout: 30 * time.Second,
	}
	o.Search.MaxLenA, o.Search.MaxLenB = 1.2, 10
	return o
}

func (o *Options) fill() error {
	d := Defaults()
	set := func(x *int, v int) {
		if *x <= 0 {
			*x = v
		}
	}
	set(&o.BatchTokens, d.BatchTokens)
	set(&o.BatchRequestLines, d.BatchRequestLines)
	set(&o.MaxRows, d.MaxRows)
	set(&o.MaxStateTokens, d.MaxStateTokens)
	set(&o.QueueLines, d.QueueLines)
	set(&o.MaxLines, d.MaxLines)
	set(&o.MaxLineLen, d.MaxLineLen)
	set(&o.MaxBeam, d.MaxBeam)
	if o.MaxBody <= 0 {
		o.MaxBody = d.MaxBody
	}
	if o.Timeout <= 0 {
		o.Timeout = d.Timeout
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = d.DrainTimeout
	}
	if o.BatchWait < 0 {
		return fmt.Errorf("batch wait %s is negative", o.BatchWait)
	}
	if o.QueueLines < o.MaxLines {
		return fmt.Errorf("queue of %d lines cannot hold one request of %d lines (--max-lines)", o.QueueLines, o.MaxLines)
	}
	return o.Search.Validate()
}

// decoders resolves Options.Workers and Threads on a machine of cores
// cores (see Options).
func decoders(workers, threads, cores int) (int, int) {
	switch {
	case workers <= 0 && threads <= 0:
		return max(1, cores), 1
	case workers <= 0:
		return max(1, cores/threads), threads
	case threads <= 0:
		return workers, max(1, cores/workers)
	}
	return workers, threads
}
