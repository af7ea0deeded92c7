package serve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/strata-nmt/strata/data"
	"github.com/strata-nmt/strata/decode"
)

// Server answers translation requests with a pool of workers, each owning
// one decoder (a search's state is not safe for concurrent use), fed by
// the batcher.
type Server struct {
	b       *decode.Bundle
	opt     Options
	bat     *batcher
	cpu     *cpuShare
	met     *metrics
	log     *slog.Logger
	check   *decode.Translator // validates directions; never translates, never changes
	enc     sync.Pool          // *data.Encoder, to count a line's tokens
	stop    chan struct{}
	workers sync.WaitGroup
	files   *fileStore // translated files awaiting download
	// requests being answered, and whether shutdown has begun
	active   atomic.Int64
	draining atomic.Bool
	// translation requests answered and their lines (status 200), for
	// the drain log
	answered, answeredLines atomic.Int64
}

// New starts the workers; Close stops them.
func New(b *decode.Bundle, opt Options, log *slog.Logger) (*Server, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	opt.Workers, opt.Threads = decoders(opt.Workers, opt.Threads, runtime.GOMAXPROCS(0))
	s := &Server{b: b, opt: opt, log: log, stop: make(chan struct{}), met: newMetrics(),
		files: newFileStore(opt.FileStoreBytes, opt.FileTTL)}
	s.bat = newBatcher(&s.opt, func(n int) { s.met.queue.Set(float64(n)) })
	s.cpu = newCPUShare(opt.Workers, opt.TimeShareQuantum, nil)
	s.enc.New = func() any { return b.Vocab.NewEncoder() }
	sr, err := b.Searcher(opt.Search)
	if err != nil {
		return nil, err
	}
	s.check = decode.NewTranslator(b, sr)
	for i := 0; i < opt.decoderCount(); i++ {
		w, err := s.newWorker(i)
		if err != nil {
			close(s.stop)
			return nil, err
		}
		s.workers.Add(1)
		go w.run()
	}
	return s, nil
}

// Close stops the workers after the batches they are decoding.
func (s *Server) Close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	s.workers.Wait()
}

// worker decodes batches with one translator whose search options change
// with each batch's key (decode.Searcher.SetOptions keeps one set of
// graphs and decoder caches, whatever the beams requests ask for).
type worker struct {
	s     *Server
	t     *decode.Translator
	arena prometheus.Gauge
	turn  *turn // the batch being decoded's claim to a CPU slot
}

func (s *Server) newWorker(id int) (*worker, error) {
	sr, err := s.b.Searcher(s.opt.Search)
	if err != nil {
		return nil, err
	}
	sr.SetThreads(s.opt.Threads)
	t := decode.NewTranslator(s.b, sr)
	t.MaxRows, t.MaxStateTokens, t.MaxSrcLen = s.opt.MaxRows, s.opt.MaxStateTokens, s.opt.MaxSrcTokens
	w := &worker{s: s, t: t, arena: s.met.arena.WithLabelValues(fmt.Sprint(id))}
	sr.Turn = func() { s.cpu.yield(w.turn) }
	return w, nil
}

func (w *worker) run() {
	defer w.s.workers.Done()
	for {
		bt := w.s.bat.next(w.s.stop)
		if bt == nil {
			return
		}
		w.turn = w.s.cpu.acquire(bt.tasks())
		res, attns, err := w.decode(bt)
		w.s.cpu.release(w.turn)
		w.turn = nil
		w.s.bat.deliver(bt, res, attns, err)
		w.arena.Set(float64(w.t.S.HeldBytes()))
	}
}

// searchOptions are the server's search options with a key's beam and
// n-best.
func (s *Server) searchOptions(k key) decode.Options {
	o := s.opt.Search
	o.Beam, o.NBest = k.beam, k.nbest
	o.Greedy = k.beam == 1 && !o.Sampling.On
	return o
}

func (w *worker) decode(bt *batch) (res []decode.Result, attns []*decode.AttentionMap, err error) {
	k := bt.key
	if err := w.t.S.SetOptions(w.s.searchOptions(k)); err != nil {
		return nil, nil, err
	}
	w.t.Align = k.align
	lines := make([]string, len(bt.items))
	srcToks := 0
	for i, it := range bt.items {
		lines[i] = it.t.lines[it.i]
		srcToks += it.t.toks[it.i]
	}
	before := w.t.Stats
	start := time.Now()
	res, err = w.t.Lines(lines, k.src, k.tgt, k.pivot)
	if err != nil {
		return nil, nil, err
	}
	attns = make([]*decode.AttentionMap, len(bt.items))
	for i, it := range bt.items {
		if it.t.attn >= 0 && len(res[i].Hyps) > 0 {
			a, err := w.t.LineAttention(lines[i], k.src, k.tgt, res[i].Hyps[0], decode.AttnCross, it.t.attn)
			if err != nil {
				return nil, nil, err
			}
			attns[i] = &a
		}
	}
	w.s.met.batch(len(lines), srcToks, w.t.Stats.Tokens-before.Tokens, time.Since(start))
	return res, attns, nil
}

// httpError is an error with its HTTP status.
type httpError struct {
	code int
	msg  string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(format string, a ...any) error {
	return &httpError{http.StatusBadRequest, fmt.Sprintf(format, a...)}
}

// job is a validated translation request.
type job struct {
	key   key
	lines []string
	attn  int // cross-attention layer to return, -1 for none
}

// validate checks a job against the server's bounds and the model.
func (s *Server) validate(j job) error {
	o := &s.opt
	switch {
	case len(j.lines) == 0:
		return badRequest("no text to translate: give at least one line")
	case len(j.lines) > o.MaxLines:
		return badRequest("%d lines in one request; this server takes at most %d (--max-lines)", len(j.lines), o.MaxLines)
	case j.key.beam < 1 || j.key.beam > o.MaxBeam:
		return badRequest("beam %d: must be between 1 and %d (--max-beam)", j.key.beam, o.MaxBeam)
	case j.key.nbest < 1 || j.key.nbest > j.key.beam:
		return badRequest("n-best %d: must be between 1 and the beam size %d", j.key.nbest, j.key.beam)
	case j.attn >= 0 && j.key.pivot != "":
		return badRequest("attention of pivoted translations is not supported")
	case j.attn >= s.b.Model.Config().DecoderLayers:
		return badRequest("attention layer %d: the model has %d decoder layers (0-based)", j.attn, s.b.Model.Config().DecoderLayers)
	}
	for i, l := range j.lines {
		if len(l) > o.MaxLineLen {
			return badRequest("line %d is %d bytes long; this server takes at most %d bytes per line (--max-line-bytes)", i+1, len(l), o.MaxLineLen)
		}
		if strings.ContainsAny(l, "\r\n") {
			return badRequest("line %d holds a line break: send each line as its own array element", i+1)
		}
	}
	if j.key.align && j.key.pivot != "" {
		return badRequest("word alignment of pivoted translations is not supported: the last leg's source is the pivot text, not the input")
	}
	if err := s.check.CheckDirection(j.key.src, j.key.tgt, j.key.pivot); err != nil {
		return badRequest("%s", err)
	}
	return nil
}

var errDraining = &httpError{http.StatusServiceUnavailable, "the server is shutting down"}

// translate queues j and waits for its results; ctx carries the client's
// connection and the request deadline.
func (s *Server) translate(ctx context.Context, j job) (*task, error) {
	if err := s.validate(j); err != nil {
		return nil, err
	}
	t := &task{ctx: ctx, key: j.key, lines: j.lines, attn: j.attn, enq: time.Now(), toks: s.countTokens(j.lines)}
	s.cpu.join(t)
	if err := s.bat.add(t); err != nil {
		return nil, &httpError{http.StatusServiceUnavailable,
			fmt.Sprintf("%v (%d lines waiting, --queue-lines %d): retry later", err, s.opt.QueueLines, s.opt.QueueLines)}
	}
	select {
	case <-t.done:
		if t.err != nil {
			return nil, &httpError{http.StatusInternalServerError, t.err.Error()}
		}
		return t, nil
	case <-ctx.Done():
		s.bat.cancel(t)
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, &httpError{http.StatusGatewayTimeout, fmt.Sprintf("not translated within %s (--timeout)", s.opt.Timeout)}
		}
		return nil, &httpError{statusClientClosed, "the client closed the request"}
	}
}

// statusClientClosed is nginx's status for a request whose client went
// away; it is logged and counted, never sent.
const statusClientClosed = 499

// countTokens is each line's subword count plus its EOS, empty lines 1.
func (s *Server) countTokens(lines []string) []int {
	enc := s.enc.Get().(*data.Encoder)
	defer s.enc.Put(enc)
	out := make([]int, len(lines))
	var buf []int32
	for i, l := range lines {
		buf = enc.Encode(buf[:0], l)
		out[i] = len(buf) + 1
	}
	return out
}
