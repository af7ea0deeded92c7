package engine

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/strata-nmt/strata/engine/blas"
)

// The products of beam decoding (d=256, ffn=1024, vocabulary 8000): few
// rows (beam rows of a batch: 160 at batch 32 and beam 5, 5-40 as
// sentences finish) times a fixed weight.
var decodeRows = []int{5, 40, 160}
var decodeKN = []struct{ k, n int }{{256, 256}, {256, 1024}, {1024, 256}, {256, 8000}}

// threadCPU is this thread's CPU time.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return time.Duration(ts.Nano())
}

// BenchmarkDecodeLinear compares the packed kernel in use (F32Kernel) with
// OpenBLAS on decoding's inference products, y = x·Wᵀ + b, one thread,
// side by side: every iteration runs a batch of products on each in turn,
// timed in CPU time of the (locked) thread, so both see the same load.
// Metrics: GFLOP/s per CPU-second of each and their ratio (packed/blas).
//
//	go test ./engine -run '^$' -bench DecodeLinear -benchtime 20x
func BenchmarkDecodeLinear(b *testing.B) {
	initBLAS() // OpenBLAS single-threaded, as the engine runs it
	if f32Kernel.Tile == nil {
		b.Skip("no packed kernel in use (STRATA_SGEMM=blas or no AVX2+FMA)")
	}
	for _, kn := range decodeKN {
		for _, m := range decodeRows {
			b.Run(fmt.Sprintf("m%d_k%d_n%d", m, kn.k, kn.n), func(b *testing.B) {
				benchDecodeLinear(b, m, kn.k, kn.n)
			})
		}
	}
}

func benchDecodeLinear(b *testing.B, m, k, n int) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	x, w, bias := benchData(m*k), benchData(n*k), benchData(n)
	y := make([]float32, m*n)
	wt := FromData(w, n, k)
	g := NewInference()
	g.SetThreads(1)
	flops := 2 * float64(m) * float64(k) * float64(n)
	reps := max(1, int(2e7/flops)) // about a millisecond of work per batch
	packed := func() {
		for r := 0; r < reps; r++ {
			// as Linear calls it: the cached pack, checked against
			// the weight's fingerprint
			g.packedProduct(f32Kernel, x, m, packedOf(wt), bias, y)
		}
	}
	openblas := func() {
		for r := 0; r < reps; r++ {
			for i := 0; i < m; i++ {
				copy(y[i*n:(i+1)*n], bias)
			}
			blas.Sgemm(false, true, m, n, k, 1, x, k, w, k, 1, y, n)
		}
	}
	packed()
	openblas()
	var tp, tb time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		first, second, t1, t2 := packed, openblas, &tp, &tb
		if i%2 == 1 { // alternate which goes first
			first, second, t1, t2 = openblas, packed, &tb, &tp
		}
		c0 := threadCPU()
		first()
		c1 := threadCPU()
		second()
		*t1 += c1 - c0
		*t2 += threadCPU() - c1
	}
	total := flops * float64(reps) * float64(b.N) / 1e9
	gp, gb := total/tp.Seconds(), total/tb.Seconds()
	b.ReportMetric(gp, "packed-GFLOP/cpu-s")
	b.ReportMetric(gb, "blas-GFLOP/cpu-s")
	b.ReportMetric(gp/gb, "packed/blas")
}

// BenchmarkSgemmPeak is a large single-threaded OpenBLAS product, the
// machine's practical float32 peak to read BenchmarkDecodeLinear against
// (the theoretical one of an AVX2 core with two FMA pipes is 32 flops per
// cycle).
func BenchmarkSgemmPeak(b *testing.B) {
	initBLAS()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const s = 1024
	x, w, y := benchData(s*s), benchData(s*s), make([]float32, s*s)
	p := PackF32(w, s, s)
	g := NewInference()
	g.SetThreads(1)
	var tb, tp time.Duration
	for i := 0; i < b.N; i++ {
		c0 := threadCPU()
		blas.Sgemm(false, true, s, s, s, 1, x, s, w, s, 0, y, s)
		c1 := threadCPU()
		if f32Kernel.Tile != nil {
			g.packedProduct(f32Kernel, x, s, p, nil, y)
		}
		tb += c1 - c0
		tp += threadCPU() - c1
	}
	total := 2 * float64(s*s*s) * float64(b.N) / 1e9
	b.ReportMetric(total/tb.Seconds(), "blas-GFLOP/cpu-s")
	if f32Kernel.Tile != nil {
		b.ReportMetric(total/tp.Seconds(), "packed-GFLOP/cpu-s")
	}
}
