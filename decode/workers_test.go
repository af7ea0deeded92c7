package decode

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/strata-nmt/strata/data"
)

// Batches decoded by several workers give exactly the output of one
// searcher decoding them in turn (same thread count per batch), in input
// order, word alignments included, and the same statistics.
func TestWorkersMatchSequential(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	o := testOptions(3)
	var input []string
	for i := 0; i < 23; i++ {
		input = append(input, corpus[i%len(corpus)][:5+i%17%len(corpus[i%len(corpus)][5:])])
		if i%7 == 3 {
			input = append(input, "")
		}
	}
	run := func(workers int) (string, Stats) {
		tr := testTranslator(t, b, o)
		tr.BatchSize, tr.Align = 2, true
		tr.S.SetThreads(1)
		if err := tr.SetWorkers(workers, workers); err != nil {
			t.Fatal(err)
		}
		if got := 1; tr.Pool != nil {
			got = tr.Pool.Workers()
			if got != workers {
				t.Fatalf("pool of %d workers, asked for %d", got, workers)
			}
		}
		var out bytes.Buffer
		if err := tr.Stream(strings.NewReader(strings.Join(input, "\n")+"\n"), &out, StreamOptions{Src: "en", Tgt: "de", Buffer: 9, Scores: true}); err != nil {
			t.Fatal(err)
		}
		return out.String(), tr.Stats
	}
	want, wantStats := run(1)
	if n := strings.Count(want, "\n"); n < len(input) { // n-best: LINE<TAB>SCORE<TAB>TEXT
		t.Fatalf("%d output lines for %d inputs", n, len(input))
	}
	for _, w := range []int{2, 3, 8} {
		got, st := run(w)
		if got != want {
			t.Fatalf("%d workers:\n%s\none:\n%s", w, got, want)
		}
		if st != wantStats {
			t.Fatalf("%d workers: stats %+v, one worker %+v", w, st, wantStats)
		}
	}
}

// Run calls done once per batch, splits the threads among the searchers
// that have work, and stops at the first error.
func TestPoolRun(t *testing.T) {
	b := testBundle(t, data.TagSENCTDEC)
	s := testTranslator(t, b, testOptions(2)).S
	var made int
	p, err := NewPool(s, 3, 4, func() (*Searcher, error) { made++; return b.Searcher(s.Options()) })
	if err != nil || made != 2 || p.Workers() != 3 {
		t.Fatalf("NewPool: %v, %d made", err, made)
	}
	src := []int32{5, 6, 7, data.EOSID}
	batch := func(int) [][]int32 { return [][]int32{src} }
	var calls [10]atomic.Int32
	if err := p.Run(10, batch, startPrefix, func(i int, h [][]Hypothesis) error {
		calls[i].Add(1)
		if len(h) != 1 {
			return fmt.Errorf("batch %d: %d results", i, len(h))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i := range calls {
		if calls[i].Load() != 1 {
			t.Fatalf("batch %d done %d times", i, calls[i].Load())
		}
	}
	// two batches: two searchers of two threads each
	if err := p.Run(2, batch, startPrefix, func(int, [][]Hypothesis) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if a, b := p.searchers[0].g.Threads(), p.searchers[1].g.Threads(); a != 2 || b != 2 {
		t.Fatalf("2 batches on 4 threads: searchers got %d and %d threads", a, b)
	}
	boom := errors.New("boom")
	var n atomic.Int32
	err = p.Run(50, batch, startPrefix, func(i int, _ [][]Hypothesis) error {
		n.Add(1)
		if i == 4 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) || n.Load() >= 50 {
		t.Fatalf("error %v after %d batches", err, n.Load())
	}
}
