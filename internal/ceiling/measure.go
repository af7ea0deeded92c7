package ceiling

import (
	"runtime"
	"sync"
	"time"
)

// Rate is a measured peak in operations per second.
type Rate struct {
	// Cores is the peak of all the threads measured together: the sum of
	// each thread's best window, what the cores do when each runs the
	// loop undisturbed.
	Cores float64
	// Core is the best window of any one thread: one core's peak, the
	// operations per CPU-second a program can reach at most.
	Core float64
	// Threads is how many threads ran the loop at once.
	Threads int
}

// window is the length of one timed run of the loop. On a shared machine
// a short window is often not preempted, and the best window over the
// measurement is the core's own rate, not the share the scheduler gave it.
const window = 2 * time.Millisecond

// Measure runs loop (FMAPeak or Int8Peak) on threads OS threads at once
// for about d and returns its peak rate. Each thread times windows of
// about 2 ms and keeps its fastest, so that other work on the machine
// lowers the measurement only where no window ran undisturbed; a ceiling
// measured too high is safe, one measured too low is not. The zero Rate
// means the loop ran nothing: no ceiling is known.
func Measure(threads int, d time.Duration, loop func(n int) float64) Rate {
	threads = max(threads, 1)
	best := make([]float64, threads)
	var wg sync.WaitGroup
	deadline := time.Now().Add(d)
	for t := range best {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			best[t] = bestWindow(loop, deadline)
		}()
	}
	wg.Wait()
	r := Rate{Threads: threads}
	for _, b := range best {
		r.Cores += b
		r.Core = max(r.Core, b)
	}
	return r
}

// bestWindow grows the rounds a window runs until it takes about window,
// then times windows until deadline (at least two) and returns the best
// rate; 0 when the loop runs nothing.
func bestWindow(loop func(n int) float64, deadline time.Time) float64 {
	n, rate := 64, 0.0
	for i := 0; i < 2 || time.Now().Before(deadline); i++ {
		start := time.Now()
		ops := loop(n)
		el := time.Since(start)
		if ops == 0 {
			return 0
		}
		if el > 0 {
			rate = max(rate, ops/el.Seconds())
		}
		if el < window/2 {
			n *= 2
		}
	}
	return rate
}
