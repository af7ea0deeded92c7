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
	"github.com/strata-nmt/strata/internal/ceiling"
)

// peakRates measures the machine's best matrix-product rate on one large
// square product (n×n×n, float32, the operands filled once) with threads threads
// three ways: the BLAS's own threads on the whole product; the product
// split into row blocks over goroutines with a single-threaded BLAS, as
// strata's engine runs large products; and the same row blocks on the
// engine's own register-tiled float32 kernel (the inference kernel, weight
// packed beforehand), when the CPU has one: the fastest product code the
// machine runs, whichever it is, a practical rate read against the FMA
// peak (the ceiling). Each way runs reps times;
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
			start, cpu0 := time.Now(), report.CPUSeconds()
			run()
			rate = max(rate, flop/time.Since(start).Seconds()/1e9)
			perCPU = max(perCPU, flop/(report.CPUSeconds()-cpu0)/1e9)
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

// fmaSeconds is how long the FMA peak is measured: long enough for many
// undisturbed 2 ms windows on every thread of a loaded machine.
const fmaSeconds = 1

// peakResult is the JSON line of a -peak run. The ceiling is the cores'
// float32 FMA peak, measured on all threads threads at once
// (internal/ceiling): the most any float32 code can compute on them. The
// best n³ sgemm rates are reported beside it, for reading how close the
// machine's product code comes to it.
func peakResult(n, threads int) map[string]any {
	fma := ceiling.Measure(threads, fmaSeconds*time.Second, ceiling.FMAPeak)
	w, s, p, c := peakRates(n, threads, 3)
	fmt.Fprintf(os.Stderr, "FMA peak (%s), %d threads at once: %.1f GFLOP/s, %.1f GFLOP per CPU-second on one core\n",
		ceiling.FMAKernel(), threads, fma.Cores/1e9, fma.Core/1e9)
	fmt.Fprintf(os.Stderr, "sgemm %d³, %d threads: BLAS threads %.1f GFLOP/s, row blocks %.1f GFLOP/s, engine kernel (%s) %.1f GFLOP/s, %.1f GFLOP per CPU-second\n",
		n, threads, w, s, engine.F32Kernel(), p, c)
	return map[string]any{
		"bench": "peak", "n": n, "threads": threads, "blas": blas.Default().Name(),
		"fma_kernel": ceiling.FMAKernel(), "fma_peak_gflops": report.Round(fma.Cores/1e9, 1),
		"fma_peak_gflops_per_cpu_s": report.Round(fma.Core/1e9, 1), "fma_threads": fma.Threads,
		"gflops_blas_threads": report.Round(w, 1), "gflops_row_blocks": report.Round(s, 1),
		"gflops_engine_kernel": report.Round(p, 1), "engine_kernel": engine.F32Kernel(),
		"sgemm_gflops": report.Round(max(w, s, p), 1), "sgemm_gflops_per_cpu_s": report.Round(c, 1),
	}
}
