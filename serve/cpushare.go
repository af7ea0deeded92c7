package serve

import (
	"sync"
	"time"
)

// cpuShare shares CPU slots (one per decoder's worth of threads) between
// the batches being decoded, one turn at a time: the encoder pass, or one
// decoding step. The server runs more decoders than slots; a decoder takes
// a slot for each turn, and at every turn the slot goes to the waiting
// batch whose requests have used the least decoding time (each request is
// charged the full length of every turn of a batch holding its lines).
// A request that joins starts at the usage of the last turn granted, not
// at zero, so what counts is the time used since then: an expensive
// request is served in turns with the others instead of holding its slot
// for its whole batch (stride scheduling, with requests as clients).
//
// A quantum above zero makes the running batch keep its slot until it
// has used that much more than the least-served waiting batch: batches
// shorter than the quantum then run to their end in arrival order, which
// finishes them sooner on average than interleaving them step by step,
// while an expensive batch still hands its slot over every quantum or so.
//
// Scheduling decides only when a batch runs, never what it computes:
// the outputs are those of the batch decoded alone.
type cpuShare struct {
	mu      sync.Mutex
	free    int           // slots no batch holds
	clock   time.Duration // usage of the last turn granted
	waiting []*turn       // batches waiting for a slot, in arrival order
	now     func() time.Duration
	quantum time.Duration // lead over the least-served waiting batch a running one may take
	granted int           // turns granted, for tests
}

// turn is a batch's claim to a slot.
type turn struct {
	tasks []*task
	go_   chan struct{} // receives when the slot is granted
	since time.Duration // when the slot was granted
}

// newCPUShare shares slots with a quantum (0: the slot goes to a
// less-served batch at every turn); now is a monotonic clock (nil: the
// wall clock).
func newCPUShare(slots int, quantum time.Duration, now func() time.Duration) *cpuShare {
	if now == nil {
		start := time.Now()
		now = func() time.Duration { return time.Since(start) }
	}
	return &cpuShare{free: slots, quantum: quantum, now: now}
}

// join starts t's usage at the current clock: a new request is neither
// ahead of the others nor owed the time used before it came.
func (c *cpuShare) join(t *task) {
	c.mu.Lock()
	t.used = c.clock
	c.mu.Unlock()
}

// acquire waits for a slot for a batch of tasks' lines.
func (c *cpuShare) acquire(tasks []*task) *turn {
	tn := &turn{tasks: tasks, go_: make(chan struct{}, 1)}
	c.mu.Lock()
	if c.free > 0 && len(c.waiting) == 0 {
		c.free--
		c.start(tn)
		c.mu.Unlock()
		return tn
	}
	c.waiting = append(c.waiting, tn)
	c.mu.Unlock()
	<-tn.go_
	return tn
}

// yield ends tn's turn: it charges it, and hands the slot to a waiting
// batch that has used less, returning when tn's next turn is granted.
func (c *cpuShare) yield(tn *turn) {
	c.mu.Lock()
	c.charge(tn)
	best := c.best()
	if best < 0 || usage(c.waiting[best])+c.quantum >= usage(tn) {
		c.start(tn) // nobody waiting has used less by a quantum: go on
		c.mu.Unlock()
		return
	}
	next := c.waiting[best]
	c.waiting = append(c.waiting[:best], c.waiting[best+1:]...)
	c.waiting = append(c.waiting, tn)
	c.handOver(next)
	c.mu.Unlock()
	<-tn.go_
}

// release ends tn's last turn and gives its slot to the batch that has
// used least, if any waits.
func (c *cpuShare) release(tn *turn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.charge(tn)
	best := c.best()
	if best < 0 {
		c.free++
		return
	}
	next := c.waiting[best]
	c.waiting = append(c.waiting[:best], c.waiting[best+1:]...)
	c.handOver(next)
}

// charge adds tn's turn to the usage of its tasks.
func (c *cpuShare) charge(tn *turn) {
	d := c.now() - tn.since
	for _, t := range tn.tasks {
		t.used += d
	}
}

// start starts tn's turn; the caller holds the mutex and the slot.
func (c *cpuShare) start(tn *turn) {
	c.clock = max(c.clock, usage(tn))
	tn.since = c.now()
	c.granted++
}

// handOver starts the turn of tn, which waits, and wakes it.
func (c *cpuShare) handOver(tn *turn) {
	c.start(tn)
	tn.go_ <- struct{}{}
}

// best is the index of the waiting batch that has used least, the first
// to come among equals; -1 when none waits.
func (c *cpuShare) best() int {
	best := -1
	for i, tn := range c.waiting {
		if best < 0 || usage(tn) < usage(c.waiting[best]) {
			best = i
		}
	}
	return best
}

// usage is the least usage among a batch's requests: a batch serving a
// request that has used little is not held back by the others in it.
func usage(tn *turn) time.Duration {
	u := tn.tasks[0].used
	for _, t := range tn.tasks[1:] {
		u = min(u, t.used)
	}
	return u
}

// waitingBatches is the number of batches waiting for a slot.
func (c *cpuShare) waitingBatches() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiting)
}
