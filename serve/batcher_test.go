package serve

import (
	"context"
	"fmt"
	"github.com/strata-nmt/strata/decode"
	"strings"
	"testing"
	"time"
)

// A batch holds at most the sentences of one decoding step (MaxRows rows
// of beam rows each), so that other workers take the rest in parallel, and
// a full step's worth of lines is taken without waiting for BatchWait.
func TestBatchIsOneDecodingStep(t *testing.T) {
	o := Defaults()
	o.MaxRows, o.BatchWait = 20, time.Hour // beam 4: 5 sentences a step
	b := newBatcher(&o, func(int) {})
	k := key{src: "en", tgt: "de", beam: 4, nbest: 1}
	for i := 0; i < 3; i++ {
		if err := b.add(&task{ctx: context.Background(), key: k, lines: []string{"a", "b", "c"}, toks: []int{2, 2, 2}, attn: -1, enq: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	got := make(chan *batch, 1)
	go func() { got <- b.next(stop) }()
	var bt *batch
	select {
	case bt = <-got:
	case <-time.After(10 * time.Second):
		close(stop)
		t.Fatal("a full decoding step of lines waited for --batch-wait")
	}
	if len(bt.items) != 5 {
		t.Errorf("batch of %d lines, want 5 (MaxRows 20 / beam 4)", len(bt.items))
	}
	if q := b.queuedLines(); q != 4 {
		t.Errorf("%d lines left in the queue, want 4", q)
	}
	greedy := key{src: "en", tgt: "de", beam: 1, nbest: 1}
	if n := b.batchLines(greedy); n != 20 {
		t.Errorf("greedy batch of %d lines, want 20", n)
	}
}

// With more lines waiting than a batch holds, a batch takes lines of
// similar length around the oldest waiting line (less padding), and the
// tasks it served go to the back of the queue.
func TestBatchTakesSimilarLengths(t *testing.T) {
	o := Defaults()
	o.MaxRows = 15 // beam 5: 3 sentences a batch
	b := newBatcher(&o, func(int) {})
	k := key{src: "en", tgt: "de", beam: 5, nbest: 1}
	tasks := map[string][]int{"A": {20}, "B": {1, 2, 3, 19, 21, 22}, "C": {18, 4, 5}}
	byName := map[*task]string{}
	for _, name := range []string{"A", "B", "C"} {
		tk := &task{ctx: context.Background(), key: k, toks: tasks[name], attn: -1, enq: time.Now()}
		tk.lines = make([]string, len(tk.toks))
		byName[tk] = name
		if err := b.add(tk); err != nil {
			t.Fatal(err)
		}
	}
	b.mu.Lock()
	bt := b.take(b.queue[0])
	b.mu.Unlock()
	var got []string
	for _, it := range bt.items {
		got = append(got, fmt.Sprintf("%s%d:%d", byName[it.t], it.i, it.t.toks[it.i]))
	}
	if want := "A0:20 B3:19 B4:21"; strings.Join(got, " ") != want {
		t.Errorf("batch %q, want %q", strings.Join(got, " "), want)
	}
	var order []string
	for _, tk := range b.queue {
		order = append(order, byName[tk])
	}
	if strings.Join(order, "") != "CB" || b.queuedLines() != 7 {
		t.Errorf("queue %v with %d lines after the batch, want [C B] with 7", order, b.queuedLines())
	}
	// while the batch with B's lines is decoded, B waits: C's lines only
	b.mu.Lock()
	rest := b.candidates(b.pick(), 100)
	b.mu.Unlock()
	if got := names(rest, byName); got != "C0 C1 C2" {
		t.Errorf("waiting lines during the batch %q, want C's", got)
	}
	// once it is decoded, B's remaining lines (its first three and its
	// last) are taken in turns with C's
	b.deliver(bt, make([]decode.Result, len(bt.items)), nil, nil)
	b.mu.Lock()
	rest = b.candidates(b.pick(), 100)
	b.mu.Unlock()
	if got := names(rest, byName); got != "C0 B0 C1 B1 C2 B2 B5" {
		t.Errorf("waiting lines %q, want C0 B0 C1 B1 C2 B2 B5", got)
	}
}

func names(items []item, byName map[*task]string) string {
	var out []string
	for _, it := range items {
		out = append(out, fmt.Sprintf("%s%d", byName[it.t], it.i))
	}
	return strings.Join(out, " ")
}

// A request arriving while several workers are idle is spread over them,
// as many as there are CPU slots (the standby decoders of --time-share
// would only take turns with them): one 10-line request, four idle
// workers, two slots, two batches of 5 lines.
func TestIdleWorkersShareARequest(t *testing.T) {
	o := Defaults()
	o.BatchWait, o.Workers = time.Millisecond, 2
	b := newBatcher(&o, func(int) {})
	stop := make(chan struct{})
	defer close(stop)
	got := make(chan *batch, 4)
	for i := 0; i < 4; i++ {
		go func() { got <- b.next(stop) }()
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		b.mu.Lock()
		idle := b.idle
		b.mu.Unlock()
		if idle == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the workers did not start waiting")
		}
	}
	k := key{src: "en", tgt: "de", beam: 5, nbest: 1}
	tk := &task{ctx: context.Background(), key: k, lines: make([]string, 10), toks: make([]int, 10), attn: -1, enq: time.Now()}
	if err := b.add(tk); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		select {
		case bt := <-got:
			if len(bt.items) != 5 {
				t.Errorf("batch of %d lines, want 5 (10 lines over 2 slots)", len(bt.items))
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the second worker got no batch")
		}
	}
}

func TestDecodersDefault(t *testing.T) {
	for _, c := range []struct{ w, th, cores, wantW, wantT int }{
		{0, 0, 4, 4, 1}, {0, 2, 4, 2, 2}, {0, 8, 4, 1, 8}, {1, 0, 4, 1, 4}, {3, 0, 4, 3, 1}, {2, 3, 4, 2, 3},
	} {
		if w, th := decoders(c.w, c.th, c.cores); w != c.wantW || th != c.wantT {
			t.Errorf("decoders(%d, %d) on %d cores = %d x %d, want %d x %d", c.w, c.th, c.cores, w, th, c.wantW, c.wantT)
		}
	}
}

// A batch takes no line of very different length from its first: short
// lines would wait for a long one's output to end. The long line gets a
// batch of its own once its request is first in turn.
func TestBatchLeavesOutLinesOfOtherCost(t *testing.T) {
	o := Defaults()
	b := newBatcher(&o, func(int) {})
	k := key{src: "en", tgt: "de", beam: 5, nbest: 1}
	short := &task{ctx: context.Background(), key: k, lines: make([]string, 2), toks: []int{10, 60}, attn: -1, enq: time.Now()}
	long := &task{ctx: context.Background(), key: k, lines: make([]string, 2), toks: []int{900, 12}, attn: -1, enq: time.Now()}
	byName := map[*task]string{short: "S", long: "L"}
	for _, tk := range []*task{short, long} {
		if err := b.add(tk); err != nil {
			t.Fatal(err)
		}
	}
	b.mu.Lock()
	first := b.take(b.queue[0])
	b.mu.Unlock()
	if got := names(first.items, byName); got != "S0 S1 L1" {
		t.Errorf("first batch %q, want S0 S1 L1 (not L0, 900 tokens)", got)
	}
	b.deliver(first, make([]decode.Result, len(first.items)), nil, nil)
	b.mu.Lock()
	if len(b.queue) == 0 {
		b.mu.Unlock()
		t.Fatal("no line left for a second batch")
	}
	second := b.take(b.pick())
	b.mu.Unlock()
	if got := names(second.items, byName); got != "L0" {
		t.Errorf("second batch %q, want L0 alone", got)
	}
}
