package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// ListenAndServe binds addr first (a bind error is returned before
// anything is served), calls listening with the bound address (the caller
// prints its serving line there, so that line is never a lie), and serves
// until ctx is cancelled; then it drains (see Serve).
func (s *Server) ListenAndServe(ctx context.Context, addr string, listening func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.Close()
		// net's message ("listen tcp: address 99999: invalid port") does
		// not say which setting to change
		return fmt.Errorf("serve: cannot listen on %q (--addr HOST:PORT): %w", addr, err)
	}
	return s.Serve(ctx, ln, listening)
}

// Serve answers requests on ln until ctx is cancelled, then shuts down
// gracefully: it stops accepting connections, lets queued and in-flight
// requests finish for up to the drain timeout, logs what was drained and
// stops the workers. It returns nil after a shutdown, even one whose
// drain timed out (what was abandoned is logged as a warning).
func (s *Server) Serve(ctx context.Context, ln net.Listener, listening func(net.Addr)) error {
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout: 2 * time.Minute, ErrorLog: nil}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if listening != nil {
		listening(ln.Addr())
	}
	select {
	case err := <-errc:
		s.Close()
		return err
	case <-ctx.Done():
	}
	start := time.Now()
	s.draining.Store(true)
	active, answered, lines := s.active.Load(), s.answered.Load(), s.answeredLines.Load()
	s.log.Info("shutting down: no new connections; draining requests", "active_requests", active,
		"queued_lines", s.bat.queuedLines(), "drain_timeout", s.opt.DrainTimeout.String())
	shut, cancel := context.WithTimeout(context.Background(), s.opt.DrainTimeout)
	defer cancel()
	err := srv.Shutdown(shut)
	drained, drainedLines := s.answered.Load()-answered, s.answeredLines.Load()-lines
	if err != nil {
		left := s.active.Load()
		srv.Close()
		s.log.Warn("drain timeout: requests abandoned", "abandoned_requests", left,
			"drained_requests", drained, "drained_lines", drainedLines, "seconds", time.Since(start).Seconds())
	} else {
		s.log.Info("drained", "requests", drained, "lines", drainedLines, "seconds", time.Since(start).Seconds())
	}
	s.Close()
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
