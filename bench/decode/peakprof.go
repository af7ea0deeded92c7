package main

import (
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// peakHeapProfiler writes, to path, the heap profile of the largest live
// heap the run reached: every 50 ms it reads the live heap of the last
// garbage collection and, when that is a new maximum, keeps the heap
// profile (which describes the same collection). The profile at the end
// (--memprofile) shows what the run holds when the short batches are done;
// the peak resident set is set while the longest batches run, and what it
// holds then is this profile. The returned stop writes the file and
// reports the peak live heap in MiB.
func peakHeapProfiler(path string) (stop func() float64) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var best []byte
	var bestLive uint64
	done, finished := make(chan struct{}), make(chan struct{})
	take := func() {
		metrics.Read(sample)
		if live := sample[0].Value.Uint64(); live > bestLive {
			var b bytes.Buffer
			if pprof.Lookup("heap").WriteTo(&b, 0) == nil {
				best, bestLive = b.Bytes(), live
			}
		}
	}
	go func() {
		defer close(finished)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				take()
			}
		}
	}()
	return func() float64 {
		close(done)
		<-finished
		runtime.GC()
		take()
		check(os.WriteFile(path, best, 0o644))
		return float64(bestLive) / (1 << 20)
	}
}
