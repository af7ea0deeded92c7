package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

// result is one round against one server.
type result struct {
	clients, requests, lines int
	seconds, cpu             float64
	tokens, srcTokens        float64
	p50, p99                 time.Duration
	peakRSS, idleRSS         int64
	errors                   int
}

// round sends reqs from n concurrent clients and measures.
func round(c config, s *server, n int, reqs [][]string, idle int64) result {
	client := &http.Client{Timeout: c.timeout, Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	r := result{clients: n, requests: len(reqs), idleRSS: idle}
	tok0, src0 := s.counter("strata_generated_tokens_total"), s.counter("strata_source_tokens_total")
	stop := make(chan struct{})
	peak := s.sampleRSS(stop)
	cpu0 := s.cpuSeconds()
	work := make(chan int)
	lat := make([]time.Duration, len(reqs))
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for k := 0; k < n; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				t0 := time.Now()
				err := send(client, s.url, reqs[i], beamOf(c, i))
				lat[i] = time.Since(t0)
				if err != nil {
					mu.Lock()
					r.errors++
					mu.Unlock()
					fmt.Fprintf(os.Stderr, "%s: request %d: %v\n", s.name, i, err)
				}
			}
		}()
	}
	for i := range reqs {
		work <- i
		r.lines += len(reqs[i])
	}
	close(work)
	wg.Wait()
	r.seconds = time.Since(start).Seconds()
	r.cpu = s.cpuSeconds() - cpu0
	close(stop)
	r.peakRSS = <-peak
	r.tokens = s.counter("strata_generated_tokens_total") - tok0
	r.srcTokens = s.counter("strata_source_tokens_total") - src0
	slices.Sort(lat)
	r.p50, r.p99 = lat[len(lat)/2], lat[min(len(lat)-1, (len(lat)*99+99)/100-1)]
	return r
}

func beamOf(c config, i int) int {
	if c.mixedBeams {
		return 1 + i%16
	}
	return c.beam
}

func send(client *http.Client, url string, lines []string, beam int) error {
	body, _ := json.Marshal(map[string]any{"text": lines, "src_lang": "en", "tgt_lang": "de", "beam": beam})
	resp, err := client.Post(url+"/translate", "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	var out struct{ Translations []string }
	if err := json.Unmarshal(b, &out); err != nil || len(out.Translations) != len(lines) {
		return fmt.Errorf("bad answer %q (%v)", b, err)
	}
	return nil
}
