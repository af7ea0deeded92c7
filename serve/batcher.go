package serve

import (
	"cmp"
	"context"
	"errors"
	"slices"
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
	taken     []bool // lines handed to a batch
	first     int    // first line not yet handed to a batch
	handed    int    // lines handed to a batch
	inflight  int    // batches holding its lines that are being decoded
	left      int    // lines not yet decoded
	cancelled bool
	res       []decode.Result
	// decoding time charged to it (guarded by the cpuShare's mutex)
	used  time.Duration
	attns []*decode.AttentionMap
	err   error
	done  chan struct{} // closed when every line is decoded
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
	idle    int     // workers waiting in next
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
	t.taken = make([]bool, len(t.lines))
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
	if t.handed == len(t.lines) {
		return
	}
	for i, x := range b.queue {
		if x == t {
			b.queue = append(b.queue[:i], b.queue[i+1:]...)
			break
		}
	}
	b.queued -= len(t.lines) - t.handed
	t.handed, t.first = len(t.lines), len(t.lines)
	b.onQueue(b.queued)
}

// next waits for a batch; it returns nil when stop is closed.
func (b *batcher) next(stop <-chan struct{}) *batch {
	b.mu.Lock()
	b.idle++
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		b.idle--
		b.mu.Unlock()
	}()
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
		head := b.pick()
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
		bt := b.take(head)
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
			for i := t.first; i < len(t.lines); i++ {
				if !t.taken[i] {
					tokens += t.toks[i]
				}
			}
			lines += len(t.lines) - t.handed
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

// pick is the task whose key the next batch has: the first in turn order
// that has no batch being decoded, else the first. A request whose lines
// are being decoded thus waits for them while others wait, so one request
// of expensive lines holds at most one decoder while there is other work.
func (b *batcher) pick() *task {
	for _, t := range b.queue {
		if t.inflight == 0 {
			return t
		}
	}
	return b.queue[0]
}

// take removes a batch of head's key's lines from the queue.
func (b *batcher) take(head *task) *batch {
	k := head.key
	bt := &batch{key: k}
	defer func() {
		for _, t := range bt.tasks() {
			t.inflight++
		}
	}()
	if b.opt.Off { // one whole request
		t := b.queue[0]
		b.queue = b.queue[1:]
		bt.key = t.key
		for i := t.first; i < len(t.lines); i++ {
			bt.items = append(bt.items, item{t, i})
		}
		t.hand(bt.items)
		b.queued -= len(bt.items)
		return bt
	}
	most := b.batchLines(k)
	pool := b.candidates(head, poolBatches*most)
	// little waiting: spread it over the idle workers, as many as there
	// are free CPU slots (standby decoders would only take turns)
	busy := b.opt.decoderCount() - b.idle
	if spread := min(b.idle, b.opt.Workers-busy); spread > 1 {
		most = min(most, (len(pool)+spread-1)/spread)
	}
	if len(pool) > most {
		pool = similarLengths(pool, most)
	}
	tokens := 0
	for _, it := range pool {
		n := it.t.toks[it.i]
		if tokens > 0 && tokens+n > b.opt.BatchTokens || !similarCost(pool[0].t.toks[pool[0].i], n) {
			continue
		}
		bt.items = append(bt.items, it)
		tokens += n
	}
	var rest, served []*task
	for _, t := range b.queue {
		k0 := len(t.taken) - t.handed
		t.hand(bt.items)
		switch {
		case t.handed == len(t.lines): // every line in a batch
		case len(t.taken)-t.handed < k0:
			served = append(served, t) // to the back of the line
		default:
			rest = append(rest, t)
		}
	}
	b.queue = append(rest, served...)
	b.queued -= len(bt.items)
	return bt
}

// similarCost reports whether a line of n source tokens may share a batch
// whose first line has first: within mixRatio times its length, plus
// mixSlack tokens. A batch is decoded until its longest output ends
// (outputs grow with their sources), and every step costs as much as
// its longest source: a short line batched with a line of 1,000 tokens
// would wait for it, however the CPU is shared.
func similarCost(first, n int) bool {
	return n <= mixRatio*first+mixSlack && first <= mixRatio*n+mixSlack
}

const mixRatio, mixSlack = 4, 32

// poolBatches is how many batches' worth of waiting lines the batcher
// chooses a batch from (by length) when more are waiting than one holds.
const poolBatches = 4

// candidates are the lines a batch for head may take, head's first
// waiting line first: taken in turns, one line of each task with head's
// key at a time (head first, then in turn order), at most
// BatchRequestLines of each task and n in all. While head has no batch
// being decoded, tasks that have one are left out.
func (b *batcher) candidates(head *task, n int) []item {
	tasks := []*task{head}
	for _, t := range b.queue {
		if t != head && t.key == head.key && (head.inflight > 0 || t.inflight == 0) {
			tasks = append(tasks, t)
		}
	}
	next, took := make([]int, len(tasks)), make([]int, len(tasks))
	for i, t := range tasks {
		next[i] = t.first
	}
	var pool []item
	for more := true; more && len(pool) < n; {
		more = false
		for i, t := range tasks {
			for next[i] < len(t.lines) && t.taken[next[i]] {
				next[i]++
			}
			if len(pool) < n && next[i] < len(t.lines) && took[i] < b.opt.BatchRequestLines {
				pool = append(pool, item{t, next[i]})
				next[i]++
				took[i]++
				more = true
			}
		}
	}
	return pool
}

// tasks are the distinct tasks of a batch's lines.
func (bt *batch) tasks() []*task {
	var ts []*task
	for _, it := range bt.items {
		if !slices.Contains(ts, it.t) {
			ts = append(ts, it.t)
		}
	}
	return ts
}

// similarLengths picks n of pool's lines of similar source length, among
// them pool[0] (the oldest task's first waiting line, so every batch
// serves the head of the queue): sorted by length, the n lines around it.
// Lines of similar length pad less, which measured 1.1-1.3x more tokens
// per CPU-second (bench/serve/batchcost, docs/performance.md).
func similarLengths(pool []item, n int) []item {
	idx := make([]int, len(pool))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(pool[a].t.toks[pool[a].i], pool[b].t.toks[pool[b].i]) })
	at := slices.Index(idx, 0)
	lo := min(max(0, at-n/2), len(idx)-n)
	win := idx[lo : lo+n]
	slices.Sort(win) // queue order within the batch: the oldest lines first
	out := make([]item, n)
	for k, i := range win {
		out[k] = pool[i]
	}
	return out
}

// hand marks t's lines among items as handed to a batch.
func (t *task) hand(items []item) {
	for _, it := range items {
		if it.t == t && !t.taken[it.i] {
			t.taken[it.i] = true
			t.handed++
		}
	}
	for t.first < len(t.lines) && t.taken[t.first] {
		t.first++
	}
}

// deliver records a batch's results (or its error) and completes tasks
// whose every line is done.
func (b *batcher) deliver(bt *batch, res []decode.Result, attns []*decode.AttentionMap, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range bt.tasks() {
		t.inflight--
	}
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
