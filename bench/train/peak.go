package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/strata-nmt/strata/bench/internal/report"
	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/engine/blas"
)

// peakRates measures the machine's matrix-product rate on one large square
// product (n×n×n, float32, the operands filled once) with threads threads
// three ways: the BLAS's own threads on the whole product; the product
// split into row blocks over goroutines with a single-threaded BLAS, as
// strata's engine runs large products; and the same row blocks on the
// engine's own register-tiled float32 kernel (the inference kernel, weight
// packed beforehand), when the CPU has one: the ceiling is the fastest
// product code the machine runs, whichever it is. Each way runs reps times;
// the best of each is returned in GFLOP/s (the fastest repetition is the
// one least disturbed by other jobs on a shared machine), and the best rate
// per CPU-second of the process over all ways (what one core does when it
// runs, the steadier figure on a loaded machine).
func peakRates(n, threads, reps int) (whole, split, packed, perCPU float64) {
	a, b, c := make([]float32, n*n), make([]float32, n*n), make([]float32, n*n)
	for i := range a {
		a[i], b[i] = float32(i%7)*0.25-0.75, float32(i%5)*0.5-1
	}
	flop := 2 * float64(n) * float64(n) * float64(n)
	best := func(run func()) float64 {
		run() // untimed: first touch, thread start-up, packing
		var rate float64
		for r := 0; r < reps; r++ {
			start, cpu0 := time.Now(), cpuTime()
			run()
			rate = max(rate, flop/time.Since(start).Seconds()/1e9)
			perCPU = max(perCPU, flop/(cpuTime()-cpu0).Seconds()/1e9)
		}
		return rate
	}
	if blas.SetThreads(threads) {
		whole = best(func() { blas.Sgemm(false, false, n, n, n, 1, a, n, b, n, 0, c, n) })
		blas.SetThreads(1)
	}
	split = best(func() {
		var wg sync.WaitGroup
		for t := 0; t < threads; t++ {
			lo, hi := t*n/threads, (t+1)*n/threads
			wg.Add(1)
			go func() {
				defer wg.Done()
				blas.Sgemm(false, false, hi-lo, n, n, 1, a[lo*n:], n, b, n, 0, c[lo*n:], n)
			}()
		}
		wg.Wait()
	})
	if strings.HasPrefix(engine.F32Kernel(), "avx") {
		// y = x·Wᵀ on an inference graph: the engine's packed kernel with
		// its own row blocks over threads goroutines
		g := engine.NewInference()
		g.SetThreads(threads)
		x, w := engine.FromData(a, n, n), engine.FromData(b, n, n)
		packed = best(func() {
			g.Linear(x, w, nil)
			g.Reset()
		})
	}
	return whole, split, packed, perCPU
}

// peakResult is the JSON line of a -peak run: the three rates and the best
// of them, the machine's peak for this thread count.
func peakResult(n, threads int) map[string]any {
	w, s, p, c := peakRates(n, threads, 3)
	fmt.Fprintf(os.Stderr, "peak sgemm %d³, %d threads: BLAS threads %.1f GFLOP/s, row blocks %.1f GFLOP/s, engine kernel (%s) %.1f GFLOP/s, %.1f GFLOP per CPU-second\n",
		n, threads, w, s, engine.F32Kernel(), p, c)
	return map[string]any{
		"bench": "peak-sgemm", "n": n, "threads": threads, "blas": blas.Default().Name(),
		"gflops_blas_threads": report.Round(w, 1), "gflops_row_blocks": report.Round(s, 1),
		"gflops_engine_kernel": report.Round(p, 1), "engine_kernel": engine.F32Kernel(),
		"peak_gflops": report.Round(max(w, s, p), 1), "peak_gflops_per_cpu_s": report.Round(c, 1),
	}
}
