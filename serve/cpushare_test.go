package serve

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is advanced by the batch holding the only slot, so it needs
// no lock: the slot's hand-overs order its reads and writes.
type fakeClock struct{ t time.Duration }

func (c *fakeClock) now() time.Duration { return c.t }

// waitForWaiters returns once n batches wait for a slot.
func waitForWaiters(c *cpuShare, n int) {
	for c.waitingBatches() < n {
		runtime.Gosched()
	}
}

// Cheap requests that come while an expensive batch decodes are decoded
// between two of its steps: each is done before the expensive batch's
// next step, instead of after its last.
func TestCheapRequestsTakeTurnsWithAnExpensiveOne(t *testing.T) {
	clk := &fakeClock{}
	c := newCPUShare(1, 0, clk.now)
	expensive := &task{}
	c.join(expensive)
	te := c.acquire([]*task{expensive})
	for i := 0; i < 50; i++ { // alone, it has the slot to itself
		clk.t += 100 * time.Millisecond
		c.yield(te)
	}
	for r := 0; r < 3; r++ {
		cheap := &task{}
		c.join(cheap)
		done := make(chan int, 1)
		go func() {
			tc := c.acquire([]*task{cheap})
			steps := 0
			for ; steps < 4; steps++ {
				clk.t += 10 * time.Millisecond
				c.yield(tc)
			}
			done <- steps
			c.release(tc)
		}()
		waitForWaiters(c, 1)
		clk.t += 100 * time.Millisecond
		c.yield(te)
		select {
		case steps := <-done:
			if steps != 4 {
				t.Fatalf("cheap request %d: %d steps", r, steps)
			}
		default:
			t.Fatalf("cheap request %d was not decoded before the expensive batch's next step", r)
		}
	}
	c.release(te)
	if c.free != 1 || len(c.waiting) != 0 {
		t.Errorf("after the last release: %d free slots and %d waiting, want 1 and 0", c.free, len(c.waiting))
	}
}

// Two expensive batches on one slot get about equal time: at every point
// their step counts differ by at most two, whichever started first.
func TestExpensiveBatchesShareASlot(t *testing.T) {
	order := shareOrder(0, 20, 30*time.Millisecond)
	na, nb := 0, 0
	for i, s := range order {
		if s == "a" {
			na++
		} else {
			nb++
		}
		if na < 20 && nb < 20 && (na-nb > 2 || nb-na > 2) {
			t.Fatalf("after %d steps %d of a and %d of b: %v", i+1, na, nb, order)
		}
	}
}

// With a quantum, a running batch keeps its slot until it leads the
// waiting one by more than the quantum: with 30 ms steps and 100 ms, the
// first holder runs 4 steps (to a 120 ms lead), then each runs 8 (from
// 100 ms behind to 140 ms ahead), and the last finishes its own.
func TestQuantumKeepsTheSlotUntilTheLeadExceedsIt(t *testing.T) {
	got := runLengths(shareOrder(100*time.Millisecond, 20, 30*time.Millisecond))
	want := []string{"a4", "b8", "a8", "b8", "a8", "b4"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("runs %v, want %v", got, want)
	}
}

// shareOrder runs two batches a and b of n steps of length step on one
// slot with quantum q, a holding the slot first, and returns which batch
// ran each step.
func shareOrder(q time.Duration, n int, step time.Duration) []string {
	clk := &fakeClock{}
	c := newCPUShare(1, q, clk.now)
	a, b := &task{}, &task{}
	c.join(a)
	c.join(b)
	var order []string // appended by the holder of the slot only
	ta := c.acquire([]*task{a})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tb := c.acquire([]*task{b})
		for i := 0; i < n; i++ {
			order = append(order, "b")
			clk.t += step
			c.yield(tb)
		}
		c.release(tb)
	}()
	waitForWaiters(c, 1)
	for i := 0; i < n; i++ {
		order = append(order, "a")
		clk.t += step
		c.yield(ta)
	}
	c.release(ta)
	<-done
	return order
}

// runLengths writes an order as runs: a a b -> a2 b1.
func runLengths(order []string) []string {
	var runs []string
	for i := 0; i < len(order); {
		j := i
		for j < len(order) && order[j] == order[i] {
			j++
		}
		runs = append(runs, fmt.Sprintf("%s%d", order[i], j-i))
		i = j
	}
	return runs
}

// A batch is charged to every request with lines in it, and waits by its
// least-charged request: a batch serving a request that has used little
// goes before one whose requests have all used more.
func TestBatchWaitsByItsLeastChargedRequest(t *testing.T) {
	clk := &fakeClock{}
	c := newCPUShare(1, 0, clk.now)
	x, y, z := &task{used: 5 * time.Second}, &task{used: 1 * time.Second}, &task{used: 3 * time.Second}
	holder := c.acquire([]*task{x})
	order := make(chan string, 2)
	var wg sync.WaitGroup
	for i, bt := range []struct {
		name  string
		tasks []*task
	}{{"xz", []*task{x, z}}, {"xy", []*task{x, y}}} { // least: 3s, 1s
		wg.Add(1)
		go func() {
			defer wg.Done()
			tn := c.acquire(bt.tasks)
			order <- bt.name
			c.release(tn)
		}()
		waitForWaiters(c, i+1) // the first to come is the second granted
	}
	clk.t += time.Second
	c.release(holder)
	wg.Wait()
	if first, second := <-order, <-order; first != "xy" || second != "xz" {
		t.Errorf("granted %s then %s, want xy then xz", first, second)
	}
	if x.used != 6*time.Second {
		t.Errorf("x charged %s, want 6s", x.used)
	}
}
