package engine

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/strata-nmt/strata/engine/blas"
	"github.com/strata-nmt/strata/internal/ceiling"
)

// BenchmarkGradW compares training's weight gradient dW += dYᵀ·X on the
// weight-gradient kernel in use (gradw.go) with OpenBLAS, one thread, side
// by side: every iteration runs the product on each in turn, the order
// alternating, timed in CPU time of the locked thread, then the core's
// FMA peak (ceiling.FMAPeak, the ceiling) for about as long. Shapes: a batch of
// 4,096 target tokens through the zero-shot recipe's layers (d 128, FFN
// 512, vocabulary 8,508) and a d-256 model's. Metrics: GFLOP per
// CPU-second of each, their ratio (kernel/blas) and the kernel's share of
// the peak (kernel/peak).
//
//	go test ./engine -run '^$' -bench GradW -cpu 1 -benchtime 10x
func BenchmarkGradW(b *testing.B) {
	initBLAS()
	if f32Kernel.GradW == nil {
		b.Skip("no weight-gradient kernel in use (OpenBLAS computes it)")
	}
	for _, s := range []struct{ out, in int }{{128, 128}, {512, 128}, {128, 512}, {8508, 128}, {256, 256}, {1024, 256}, {256, 1024}} {
		b.Run(fmt.Sprintf("n4096_out%d_in%d", s.out, s.in), func(b *testing.B) { benchGradW(b, 4096, s.out, s.in) })
	}
}

func benchGradW(b *testing.B, n, out, in int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	dy, x, dw := benchData(n*out), benchData(n*in), make([]float32, out*in)
	g := NewGraph(1)
	g.SetThreads(1)
	kernel := func() { g.gradW(dy, n, out, x, in, dw) }
	openblas := func() { blas.Sgemm(true, false, out, in, n, 1, dy, out, x, in, 1, dw, in) }
	benchProductPair(b, 2*float64(n)*float64(out)*float64(in), kernel, openblas, "blas")
}

// benchProductPair warms kernel and ref up, times them side by side
// (sideBySide) with a peak measurement of about the kernel's work, and
// reports GFLOP per CPU-second of each, their ratio (kernel/<refName>) and
// the kernel's share of the peak, the higher of the interleaved peak and
// the best window of ceiling.Measure (an error instead where the share is
// above 1: the work counted or the ceiling is wrong); flops is one call's
// work.
func benchProductPair(b *testing.B, flops float64, kernel, ref func(), refName string) {
	kernel()
	ref()
	rounds := max(1, int(flops/384))
	b.ResetTimer()
	tk, tr, tp, peakFlops := sideBySide(b.N, kernel, ref, rounds)
	total := flops * float64(b.N) / 1e9
	gk, gr := total/tk.Seconds(), total/tr.Seconds()
	b.ReportMetric(gk, "kernel-GFLOP/cpu-s")
	b.ReportMetric(gr, refName+"-GFLOP/cpu-s")
	b.ReportMetric(gk/gr, "kernel/"+refName)
	if peakFlops > 0 {
		// the interleaved loop's average sees the kernel's load; the best
		// 2 ms window is the core's own rate where load lowered the average
		best := ceiling.Measure(1, 100*time.Millisecond, ceiling.FMAPeak).Core / 1e9
		gp := max(peakFlops/1e9/tp.Seconds(), best)
		b.ReportMetric(gp, "peak-GFLOP/cpu-s")
		share, err := ceiling.Share(gk, gp)
		if err != nil {
			b.Errorf("kernel/peak: %v", err)
			return
		}
		b.ReportMetric(share, "kernel/peak")
	}
}

// sideBySide runs kernel and ref n times each, the order alternating, in
// the locked thread's CPU time, and after each pair ceiling.FMAPeak(rounds) (the
// ceiling, measured under the same load); it returns the three times and
// the peak's flops.
func sideBySide(n int, kernel, ref func(), rounds int) (tk, tr, tp time.Duration, peakFlops float64) {
	for i := 0; i < n; i++ {
		first, second, t1, t2 := kernel, ref, &tk, &tr
		if i%2 == 1 {
			first, second, t1, t2 = ref, kernel, &tr, &tk
		}
		c0 := threadCPU()
		first()
		c1 := threadCPU()
		second()
		c2 := threadCPU()
		peakFlops += ceiling.FMAPeak(rounds)
		*t1 += c1 - c0
		*t2 += c2 - c1
		tp += threadCPU() - c2
	}
	return tk, tr, tp, peakFlops
}
