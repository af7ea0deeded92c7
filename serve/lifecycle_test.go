package serve

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// waitFor polls cond for up to ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func getStatus(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A request that would overflow the queue gets 503 with Retry-After and
// /ready says the queue is full; a client that disconnects takes its
// waiting lines out of the queue; a request past its deadline gets 504.
func TestQueueFullDisconnectAndTimeout(t *testing.T) {
	o := testOptions()
	o.Workers, o.QueueLines, o.BatchTokens = 1, 4, 1<<20
	o.BatchWait = time.Hour // nothing is decoded: lines stay queued
	s, ts, lb := newTestServer(t, testBundle(t), o)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/translate",
			strings.NewReader(`{"text": ["a", "b", "c", "d"], "src_lang": "en", "tgt_lang": "de"}`))
		_, err := http.DefaultClient.Do(req)
		first <- err
	}()
	waitFor(t, "4 queued lines", func() bool { return s.bat.queuedLines() == 4 })
	code, out, hdr := postJSON(t, ts.URL, `{"text": ["the cat"], "src_lang": "en", "tgt_lang": "de"}`)
	if msg, _ := out["error"].(string); code != 503 || hdr.Get("Retry-After") == "" || !strings.Contains(msg, "--queue-lines 4") {
		t.Errorf("request to a full queue: status %d, Retry-After %q, body %v", code, hdr.Get("Retry-After"), out)
	}
	if c := getStatus(t, ts.URL+"/ready"); c != 503 {
		t.Errorf("/ready with a full queue: %d", c)
	}
	if c := getStatus(t, ts.URL+"/health"); c != 200 {
		t.Errorf("/health with a full queue: %d", c)
	}
	cancel() // the client goes away
	<-first
	waitFor(t, "the queue to empty", func() bool { return s.bat.queuedLines() == 0 })
	waitFor(t, "the 499 log line", func() bool { return strings.Contains(lb.String(), "status=499") })
	if c := getStatus(t, ts.URL+"/ready"); c != 200 {
		t.Errorf("/ready after the client left: %d", c)
	}
	o.Timeout = 200 * time.Millisecond
	s, ts, _ = newTestServer(t, testBundle(t), o)
	code, out, _ = postJSON(t, ts.URL, `{"text": ["the cat"], "src_lang": "en", "tgt_lang": "de"}`)
	if msg, _ := out["error"].(string); code != 504 || !strings.Contains(msg, "--timeout") {
		t.Errorf("request past its deadline: status %d, body %v", code, out)
	}
	if n := s.bat.queuedLines(); n != 0 {
		t.Errorf("%d lines of a timed-out request still queued", n)
	}
}

// Shutting down during a request lets it finish with 200, refuses new
// connections, logs what was drained, and Serve returns nil.
func TestDrainFinishesInFlightRequests(t *testing.T) {
	o := testOptions()
	o.BatchWait, o.BatchTokens = 400*time.Millisecond, 1<<20 // the request waits in the queue
	var lb logBuffer
	s, err := New(testBundle(t), o, newLogger(&lb))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln, nil) }()
	url := "http://" + ln.Addr().String()
	done := make(chan int, 1)
	go func() {
		code, _, _ := postJSON(t, url, `{"text": ["the cat", "a dog"], "src_lang": "en", "tgt_lang": "de"}`)
		done <- code
	}()
	waitFor(t, "the request to be queued", func() bool { return s.bat.queuedLines() == 2 })
	stop()
	if code := <-done; code != 200 {
		t.Errorf("request in flight at shutdown: status %d", code)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve after shutdown: %v", err)
	}
	if _, err := http.Get(url + "/health"); err == nil {
		t.Errorf("connection accepted after shutdown")
	}
	if log := lb.String(); !strings.Contains(log, "msg=drained requests=1 lines=2") {
		t.Errorf("drain log:\n%s", log)
	}
}

// A bind error says which address failed and which flag sets it.
func TestListenErrorNamesTheAddress(t *testing.T) {
	var lb logBuffer
	s, err := New(testBundle(t), testOptions(), newLogger(&lb))
	if err != nil {
		t.Fatal(err)
	}
	err = s.ListenAndServe(context.Background(), "localhost:99999", nil)
	if err == nil || !strings.Contains(err.Error(), `"localhost:99999"`) || !strings.Contains(err.Error(), "--addr") {
		t.Fatalf("ListenAndServe on an invalid port: %v, want an error naming the address and --addr", err)
	}
}
