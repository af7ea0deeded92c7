package engine

import (
	"fmt"
	"testing"

	"github.com/strata-nmt/strata/engine/blas"
)

// The three matrix-product shapes of a d=256, ffn=1024, vocab=8000 training
// step on 2048 tokens: (m×k)·(k×n).
var benchShapes = []struct{ m, k, n int }{
	{2048, 256, 1024}, // FFN fc1
	{2048, 1024, 256}, // FFN fc2
	{2048, 256, 8000}, // output projection
}

func benchData(n int) []float32 {
	s := make([]float32, n)
	r := NewRNG(3)
	for i := range s {
		s[i] = float32(r.Float64()*2 - 1)
	}
	return s
}

func reportGFLOPS(b *testing.B, m, k, n int) {
	b.ReportMetric(2*float64(m)*float64(k)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkSgemm is the raw backend, y = x·Wᵀ as Linear calls it, for both
// backends: the baseline the engine's matmuls are compared with. OpenBLAS
// runs here with its own GOMAXPROCS threads, as a program calling it
// directly would.
func BenchmarkSgemm(b *testing.B) {
	backends := []blas.Backend{blas.Default()}
	if blas.Default().Name() != blas.Go().Name() {
		backends = append(backends, blas.Go())
	}
	for _, be := range backends {
		name := "openblas"
		if be.Name() == blas.Go().Name() {
			name = "gonum"
		}
		for _, s := range benchShapes {
			x, w, y := benchData(s.m*s.k), benchData(s.n*s.k), make([]float32, s.m*s.n)
			b.Run(fmt.Sprintf("%s/%dx%dx%d", name, s.m, s.k, s.n), func(b *testing.B) {
				defer UseBLASThreads(true)()
				for i := 0; i < b.N; i++ {
					be.Sgemm(false, true, s.m, s.n, s.k, 1, x, s.k, w, s.k, 0, y, s.n)
				}
				reportGFLOPS(b, s.m, s.k, s.n)
			})
		}
	}
}

// BenchmarkLinearForward is the same product through the engine (bias
// included, graph reset every iteration), to compare with BenchmarkSgemm.
func BenchmarkLinearForward(b *testing.B) {
	for _, s := range benchShapes {
		x := FromData(benchData(s.m*s.k), s.m, s.k)
		w := FromData(benchData(s.n*s.k), s.n, s.k)
		bias := FromData(benchData(s.n), s.n)
		b.Run(fmt.Sprintf("%dx%dx%d", s.m, s.k, s.n), func(b *testing.B) {
			g := NewGraph(1)
			g.Linear(x, w, bias) // warm the arena
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				g.Reset()
				g.Linear(x, w, bias)
			}
			reportGFLOPS(b, s.m, s.k, s.n)
		})
	}
}

// BenchmarkSgemmSmall is one attention-head product (32×64)·(64×32) through
// the backend: call overhead dominates at this size.
func BenchmarkSgemmSmall(b *testing.B) {
	q, k, p := benchData(32*64), benchData(32*64), make([]float32, 32*32)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		blas.Sgemm(false, true, 32, 32, 64, 1, q, 64, k, 64, 0, p, 32)
	}
	reportGFLOPS(b, 32, 64, 32)
}
