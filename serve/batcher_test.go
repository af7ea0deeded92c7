package serve

import (
	"context"
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
