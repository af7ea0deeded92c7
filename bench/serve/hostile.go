package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// hostileRequest is what one hostile client sends again and again: lines
// as long as the server takes (4,000 bytes of text) alternating with
// 1,000 emoji, which the models loop on.
func hostileRequest(lines []string, n int) []string {
	var text strings.Builder
	for i := 0; text.Len() < 4000; i++ {
		text.WriteString(lines[i%len(lines)] + " ")
	}
	long := strings.TrimSpace(text.String())[:3990]
	emoji := strings.Repeat("\U0001F600", 1000)
	out := make([]string, n)
	for i := range out {
		out[i] = long
		if i%2 == 1 {
			out[i] = emoji
		}
	}
	return out
}

// hostileRounds runs reqs from n normal clients on the batching server
// twice, alone and with one hostile client sending hostile requests for
// as long as the normal clients run, and prints the normal clients' p99
// of both rounds and their ratio.
func hostileRounds(c config, s *server, n int, reqs [][]string, hostile []string, idle int64) {
	alone := round(c, s, n, reqs, idle)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var sent, failed int
	var slowest time.Duration
	wg.Add(1)
	go func() {
		defer wg.Done()
		client := &http.Client{Timeout: c.timeout}
		for {
			select {
			case <-stop:
				return
			default:
			}
			t0 := time.Now()
			if err := send(client, s.url, hostile, c.beam); err != nil {
				failed++
			}
			sent++
			slowest = max(slowest, time.Since(t0))
		}
	}()
	time.Sleep(500 * time.Millisecond) // the hostile lines are being decoded
	with := round(c, s, n, reqs, idle)
	close(stop)
	wg.Wait()
	fmt.Printf("\n| round | normal clients | requests | p50 ms | p99 ms | errors |\n|---|--:|--:|--:|--:|--:|\n")
	fmt.Printf("| normal clients alone | %d | %d | %.0f | %.0f | %d |\n", n, alone.requests, ms(alone.p50), ms(alone.p99), alone.errors)
	fmt.Printf("| with one hostile client | %d | %d | %.0f | %.0f | %d |\n", n, with.requests, ms(with.p50), ms(with.p99), with.errors)
	fmt.Printf("hostile client: %d requests of %d lines (4,000-byte text and 1,000 emoji) sent, %d failed, slowest %.0f ms\n",
		sent, len(hostile), failed, ms(slowest))
	fmt.Printf("normal clients' p99 with the hostile client / without: %.2fx\n", ms(with.p99)/ms(alone.p99))
}
