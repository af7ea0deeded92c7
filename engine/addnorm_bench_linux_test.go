package engine

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkAddDropoutNorm compares a pre-norm residual feeding the next
// sublayer's norm unfused (AddDropout, LayerNorm) and fused
// (AddDropoutNorm), forward and backward, at the msc-small shard shape
// (1,024 rows of 256), one thread, side by side: each iteration runs both
// in turn, timed in the locked thread's CPU time, so both see the same
// load. Metrics: CPU-µs of each per iteration and chain/fused.
//
//	go test ./engine -run '^$' -bench AddDropoutNorm -benchtime 50x
func BenchmarkAddDropoutNorm(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n, d = 1024, 256
	r := NewRNG(4)
	x, f := param(r, "x", n, d), param(r, "f", n, d)
	gain, bias := param(r, "gain", d), param(r, "bias", d)
	dy := benchData(n * d)
	run := func(g *Graph, fused bool) time.Duration {
		t0 := threadCPU()
		g.Reset()
		var s, ln *Tensor
		if fused {
			s, ln = g.AddDropoutNorm(x, f, 0.1, gain, bias)
		} else {
			s = g.AddDropout(x, f, 0.1)
			ln = g.LayerNorm(s, gain, bias)
		}
		g.BackwardWith(g.Add(s, ln), dy)
		return threadCPU() - t0
	}
	gc, gf := NewGraph(1), NewGraph(1)
	gc.SetThreads(1)
	gf.SetThreads(1)
	run(gc, false) // warm the arenas
	run(gf, true)
	var tc, tf time.Duration
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			tc += run(gc, false)
			tf += run(gf, true)
		} else {
			tf += run(gf, true)
			tc += run(gc, false)
		}
	}
	b.ReportMetric(float64(tc.Microseconds())/float64(b.N), "chain-cpu-µs")
	b.ReportMetric(float64(tf.Microseconds())/float64(b.N), "fused-cpu-µs")
	b.ReportMetric(float64(tc)/float64(tf), "chain/fused")
}
