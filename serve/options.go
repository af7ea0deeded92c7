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

// Options configure a Server. Start from Defaults: New refuses values out
// of range (Options.check) instead of replacing them.
type Options struct {
	// Workers decoders compute at once (the CPU slots), each with Threads
	// kernel threads; TimeShare adds as many standby decoders.
	// Zero Workers: one decoder per core, each single-threaded (cores /
	// Threads of them when Threads is set), which decoded the most lines
	// per second under load (docs/performance.md); zero Threads: the
	// cores divided among the Workers.
	Workers int
	Threads int
	// TimeShare runs a standby decoder beside each of the Workers: the
	// batches being decoded take the Workers' CPU slots in turns, one
	// decoding step (or encoder pass) at a time, the slot going to the
	// batch whose requests have used the least decoding time, so one
	// request of expensive lines cannot hold a slot while others wait
	// (cpuShare). Off, each batch keeps its decoder's slot until it is
	// decoded, and decoder memory under load is half.
	TimeShare bool
	// TimeShareQuantum is how much more decoding time a running batch may
	// use than the least-served waiting one before it hands its slot over
	// (0: at every turn). Batches shorter than it run to their end.
	TimeShareQuantum time.Duration
	Search           decode.Options // default search; requests may change beam and n-best

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
	MaxSrcTokens int           // longer encoder inputs are truncated (≤ decode.HardMaxSrcLen)
	MaxBody      int64         // bytes per request body
	MaxBeam      int           // largest beam a request may ask for
	Timeout      time.Duration // per-request deadline, queueing included
	DrainTimeout time.Duration // how long shutdown waits for requests
	// Translated files (POST /translate_file) are kept in memory for
	// FileTTL, at most FileStoreBytes in all.
	FileStoreBytes int64
	FileTTL        time.Duration

	// LID identifies the language of outputs (nil: the page shows none).
	LID langid.Detector
	// LogText puts request and output text in the request log.
	LogText bool
}

// Defaults are the server defaults documented in docs/serving.md.
func Defaults() Options {
	o := Options{
		Search: decode.Defaults(), TimeShare: true,
		BatchTokens: 2048, BatchWait: 5 * time.Millisecond, BatchRequestLines: 32, MaxRows: 128, MaxStateTokens: 8192,
		QueueLines: 4096, MaxLines: 256, MaxLineLen: 4096, MaxSrcTokens: 1024, MaxBody: 1 << 20, MaxBeam: 16,
		Timeout: 60 * time.Second, DrainTimeout: 30 * time.Second, FileStoreBytes: 64 << 20, FileTTL: 30 * time.Minute,
	}
	o.Search.MaxLenA, o.Search.MaxLenB, o.Search.RepeatStop = 1.2, 10, decode.DefaultRepeatStop
	return o
}

// check refuses options out of range at start-up, naming their flags, so
// that a misconfigured server does not start and then blame its clients
// (a --beam above --max-beam made every request a 400). Zero Workers and
// Threads mean "choose for the cores" (see Options); every other count
// and duration must be positive, except BatchWait and DrainTimeout, which
// may be zero.
func (o *Options) check() error {
	for _, c := range []struct {
		flag string
		v    int
		min  int
	}{
		{"--decoders", o.Workers, 0}, {"--threads", o.Threads, 0},
		{"--batch-tokens", o.BatchTokens, 1}, {"--batch-request-lines", o.BatchRequestLines, 1},
		{"--max-rows", o.MaxRows, 1}, {"--max-state-tokens", o.MaxStateTokens, 1},
		{"--queue-lines", o.QueueLines, 1}, {"--max-lines", o.MaxLines, 1},
		{"--max-line-bytes", o.MaxLineLen, 1}, {"--max-beam", o.MaxBeam, 1}, {"--beam", o.Search.Beam, 1},
	} {
		if c.v < c.min {
			return fmt.Errorf("%s %d: must be at least %d", c.flag, c.v, c.min)
		}
	}
	switch {
	case o.MaxBody < 1:
		return fmt.Errorf("--max-body-bytes %d: must be at least 1", o.MaxBody)
	case o.FileStoreBytes < 1:
		return fmt.Errorf("--file-store-bytes %d: must be at least 1", o.FileStoreBytes)
	case o.FileTTL <= 0:
		return fmt.Errorf("--file-ttl %s: must be positive", o.FileTTL)
	case o.Timeout <= 0:
		return fmt.Errorf("--timeout %s: must be positive", o.Timeout)
	case o.DrainTimeout < 0:
		return fmt.Errorf("--drain-timeout %s is negative", o.DrainTimeout)
	case o.TimeShareQuantum < 0:
		return fmt.Errorf("--time-share-quantum %s is negative", o.TimeShareQuantum)
	case o.BatchWait < 0:
		return fmt.Errorf("--batch-wait %s is negative", o.BatchWait)
	case o.Search.Beam > o.MaxBeam:
		return fmt.Errorf("--beam %d is larger than --max-beam %d: every request without a beam would be refused", o.Search.Beam, o.MaxBeam)
	case o.QueueLines < o.MaxLines:
		return fmt.Errorf("--queue-lines %d cannot hold one request of --max-lines %d", o.QueueLines, o.MaxLines)
	case o.MaxSrcTokens < 0 || o.MaxSrcTokens > decode.HardMaxSrcLen:
		return fmt.Errorf("--max-src-len %d: must be between 1 and %d (0: %d)", o.MaxSrcTokens, decode.HardMaxSrcLen, decode.HardMaxSrcLen)
	}
	if err := o.Search.Validate(); err != nil {
		return fmt.Errorf("search options: %w", err)
	}
	return nil
}

// decoderCount is the number of decoders the server runs: Workers, and
// as many standby decoders with TimeShare.
func (o *Options) decoderCount() int {
	if o.TimeShare {
		return 2 * o.Workers
	}
	return o.Workers
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
