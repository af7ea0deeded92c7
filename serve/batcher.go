package serve

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/strata-nmt/strata/decode"
)

// key groups lines that can be decoded in one batch: the same direction
// and the same search.
type key struct {
	src, tgt, pivot string
	beam, nbest     int
	align           bool
}

// task is one request's lines on their way through the batcher.
type task struct {
	ctx   context.Context
	key   key
	lines []string
	toks  []int // source tokens per line, for the batch budget
	attn  int   // cross-attention layer wanted with the results, -1 for none
	enq   time.Time

	// guarded by the batcher's mutex
	next      int // first line not yet handed to a batch
	left      int // lines not yet decoded
	cancelled bool
	res       []decode.Result
	attns     []*decode.AttentionMap
	err       error
	done      chan struct{} // closed when every line is decoded
}

// batch is lines of one or more tasks with the same key.
type batch struct {
	key   key
	items []item
}

type item struct {
	t *task
	i int // line index in t
}

var errQueueFull = errors.New("the queue is full")

// batcher queues tasks and hands workers batches: lines of the tasks with
// the oldest waiting task's key, up to a token budget and the sentences of
// one decoding step, once either is reached or the oldest line has waited
// long enough. A task gives at most
// BatchRequestLines lines to a batch and then goes to the back of the
// queue, so a long request is decoded in turns with the others.
type batcher struct {
	opt     *Options
	mu      sync.Mutex
	queue   []*task // tasks with lines not yet in a batch, in turn order
	queued  int     // those lines
	wake    chan struct{}
	onQueue func(lines int)
}

func newBatcher(opt *Options, onQueue func(int)) *batcher {
	return &batcher{opt: opt, wake: make(chan struct{}, 1), onQueue: onQueue}
}

func (b *batcher) signal() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// add queues t, or refuses it when its lines would overflow the queue.
func (b *batcher) add(t *task) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.queued+len(t.lines) > b.opt.QueueLines {
		return errQueueFull
	}
	t.left, t.res, t.done = len(t.lines), make([]decode.Result, len(t.lines)), make(chan struct{})
	if t.attn >= 0 {
		t.attns = make([]*decode.AttentionMap, len(t.lines))
	}
	b.queue = append(b.queue, t)
	b.queued += len(t.lines)
	b.onQueue(b.queued)
	b.signal()
	return nil
}

// full reports whether the queue is full.
func (b *batcher) full() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.queued >= b.opt.QueueLines
}

// cancel drops t's lines that are not yet in a batch (its client went away
// or its deadline passed); lines being decoded finish and are discarded.
func (b *batcher) cancel(t *task) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t.cancelled = true
	if t.next == len(t.lines) {
		return
	}
	for i, x := range b.queue {
		if x == t {
			b.queue = append(b.queue[:i], b.queue[i+1:]...)
			break
		}
	}
	b.queued -= len(t.lines) - t.next
	t.next = len(t.lines)
	b.onQueue(b.queued)
}

// next waits for a batch; it returns nil when stop is closed.
func (b *batcher) next(stop <-chan struct{}) *batch {
	for {
		b.mu.Lock()
		if len(b.queue) == 0 {
			b.mu.Unlock()
			select {
			case <-b.wake:
				continue
			case <-stop:
				return nil
			}
		}
		head := b.queue[0]
		if wait := b.waitFor(head); wait > 0 {
			b.mu.Unlock()
			tm := time.NewTimer(wait)
			select {
			case <-b.wake:
			case <-tm.C:
			case <-stop:
				tm.Stop()
				return nil
			}
			tm.Stop()
			continue
		}
		bt := b.take(head.key)
		more := len(b.queue) > 0
		b.onQueue(b.queued)
		b.mu.Unlock()
		if more { // another worker may take the rest
			b.signal()
		}
		return bt
	}
}

// waitFor is how long to wait for more lines before batching head's key:
// zero when batching is off, the budget is reached or head waited enough.
func (b *batcher) waitFor(head *task) time.Duration {
	if b.opt.Off {
		return 0
	}
	wait := time.Until(head.enq.Add(b.opt.BatchWait))
	if wait <= 0 {
		return 0
	}
	tokens, lines, most := 0, 0, b.batchLines(head.key)
	for _, t := range b.queue {
		if t.key == head.key {
			for _, n := range t.toks[t.next:] {
				tokens += n
			}
			lines += len(t.lines) - t.next
		}
	}
	if tokens >= b.opt.BatchTokens || lines >= most {
		return 0
	}
	return wait
}

// batchLines is the most lines of key k in one batch: as many sentences
// as one decoding step holds (MaxRows rows of beam rows each). A larger
// batch would be decoded in turns by one worker anyway, while other
// workers idle and every request in it waits for the last turn.
func (b *batcher) batchLines(k key) int {
	rows := k.beam
	if b.opt.Search.Sampling.On {
		rows = k.nbest
	}
	return max(1, b.opt.MaxRows/max(1, rows))
}

// take removes a batch of key k's lines from the queue.
func (b *batcher) take(k key) *batch {
	bt := &batch{key: k}
	if b.opt.Off { // one whole request
		t := b.queue[0]
		b.queue = b.queue[1:]
		for ; t.next < len(t.lines); t.next++ {
			bt.items = append(bt.items, item{t, t.next})
		}
		b.queued -= len(bt.items)
		return bt
	}
	tokens, most := 0, b.batchLines(k)
	var rest, served []*task
	for _, t := range b.queue {
		if t.key != k || tokens >= b.opt.BatchTokens || len(bt.items) >= most {
			rest = append(rest, t)
			continue
		}
		for n := 0; t.next < len(t.lines) && n < b.opt.BatchRequestLines && len(bt.items) < most &&
			(tokens == 0 || tokens+t.toks[t.next] <= b.opt.BatchTokens); n++ {
			bt.items = append(bt.items, item{t, t.next})
			tokens += t.toks[t.next]
			t.next++
		}
		if t.next < len(t.lines) {
			served = append(served, t) // to the back of the line
		}
	}
	b.queue = append(rest, served...)
	b.queued -= len(bt.items)
	return bt
}

// deliver records a batch's results (or its error) and completes tasks
// whose every line is done.
func (b *batcher) deliver(bt *batch, res []decode.Result, attns []*decode.AttentionMap, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, it := range bt.items {
		t := it.t
		if err != nil {
			t.err = err
		} else {
			t.res[it.i] = res[k]
			if t.attns != nil {
				t.attns[it.i] = attns[k]
			}
		}
		t.left--
		if t.left == 0 && !t.cancelled {
			close(t.done)
		}
	}
}

// queuedLines is the number of lines waiting for a batch.
func (b *batcher) queuedLines() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.queued
}
