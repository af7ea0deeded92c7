package engine

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkLayerNormRows compares LayerNorm forward and backward at the
// msc-small shard shape (1,024 rows of 256), one thread, with its row
// arithmetic in AVX2 and in the Go loops, side by side in the locked
// thread's CPU time. Metrics: CPU-µs per iteration of each.
//
//	go test ./engine -run '^$' -bench LayerNormRows -benchtime 40x
func BenchmarkLayerNormRows(b *testing.B) {
	if !normAsm {
		b.Skip("no AVX2")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n, d = 1024, 256
	r := NewRNG(4)
	x := param(r, "x", n, d)
	gain, bias := param(r, "gain", d), param(r, "bias", d)
	dy := benchData(n * d)
	g := NewGraph(1)
	g.SetThreads(1)
	run := func(asm bool) time.Duration {
		normAsm = asm
		t0 := threadCPU()
		g.Reset()
		g.BackwardWith(g.LayerNorm(x, gain, bias), dy)
		return threadCPU() - t0
	}
	run(true)
	var ta, tg time.Duration
	for i := 0; i < b.N; i++ {
		ta += run(true)
		tg += run(false)
	}
	normAsm = true
	b.ReportMetric(float64(ta.Microseconds())/float64(b.N), "asm-cpu-µs")
	b.ReportMetric(float64(tg.Microseconds())/float64(b.N), "go-cpu-µs")
}
