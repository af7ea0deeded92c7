package main

import (
	"fmt"
	"os"
	"strings"
)

// run starts both servers, warms them up, runs the rounds interleaved
// (the order of the two servers alternates from round to round), prints
// the table and stops the servers with SIGTERM.
func run(c config, lines []string) {
	servers := []*server{startServer(c, "batching", c.on), startServer(c, "one at a time", c.off, "--no-batching")}
	fmt.Printf("model %s, compute %s, beam %d, 1-%d lines per request of %s; batching: %s; one at a time: %s\n\n",
		c.modelPath, c.compute, c.beam, c.maxLines, c.input, c.on, c.off)
	idle := make([]int64, len(servers))
	for i, s := range servers {
		round(c, s, 8, requests(lines, 16, c.maxLines, 99), 0) // warm-up
		idle[i] = s.rssBytes()
	}
	fmt.Printf("| server | clients | requests | lines | lines/s | tokens/s | lines per CPU-s | p50 ms | p99 ms | peak RSS MB | idle RSS MB | errors |\n")
	fmt.Printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	res := map[string]map[int]result{}
	for k, n := range c.clients {
		if n == 0 { // --clients 0: no load rounds
			continue
		}
		reqs := requests(lines, max(c.requests, n), c.maxLines, uint64(n))
		order := []int{0, 1}
		if k%2 == 1 {
			order = []int{1, 0}
		}
		for _, i := range order {
			s := servers[i]
			r := round(c, s, n, reqs, idle[i])
			if res[s.name] == nil {
				res[s.name] = map[int]result{}
			}
			res[s.name][n] = r
			fmt.Printf("| %s | %d | %d | %d | %.1f | %.0f | %.2f | %.0f | %.0f | %.0f | %.0f | %d |\n", s.name, n, r.requests, r.lines,
				float64(r.lines)/r.seconds, r.tokens/r.seconds, float64(r.lines)/r.cpu, ms(r.p50), ms(r.p99), mb(r.peakRSS), mb(r.idleRSS), r.errors)
		}
	}
	for _, n := range c.clients {
		b, o := res["batching"][n], res["one at a time"][n]
		if n == 0 {
			continue
		}
		fmt.Printf("%d clients: batching/one-at-a-time throughput %.2fx (lines per CPU-second %.2fx), p99 %.2fx; batching peak RSS / idle %.2fx\n",
			n, (float64(b.lines)/b.seconds)/(float64(o.lines)/o.seconds), (float64(b.lines)/b.cpu)/(float64(o.lines)/o.cpu),
			ms(b.p99)/ms(o.p99), float64(b.peakRSS)/float64(b.idleRSS))
	}
	if c.hostile > 0 {
		reqs := requests(lines, 2*c.hostile, c.maxLines, 77)
		hostileRounds(c, servers[0], c.hostile, reqs, hostileRequest(lines, c.maxLines), idle[0])
	}
	for _, s := range servers {
		code, log := s.stop()
		fmt.Fprintf(os.Stderr, "%s: exit %d after SIGTERM; %s\n", s.name, code, strings.Join(log, "; "))
	}
}

func ms(d interface{ Seconds() float64 }) float64 { return d.Seconds() * 1000 }

func mb(b int64) float64 { return float64(b) / (1 << 20) }
