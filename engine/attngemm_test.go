package engine

import (
	"math/rand/v2"
	"testing"
)

func randVec(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// BenchmarkAttnProducts: one (sentence, head) score product of the
// benchmark model, 32×32×64, through attnGemm and through the BLAS.
func BenchmarkAttnProducts(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	q, k, s := randVec(r, 32*64), randVec(r, 32*64), make([]float32, 32*32)
	flop := 2.0 * 32 * 32 * 64
	b.Run("kernel", func(b *testing.B) {
		for i := 0; i < b.N; i++ { // S = Q·Kᵀ with Kᵀ read in place
			attnGemm(32, 32, 64, 1, q, 64, 1, k, 32, s, 32, false, band{})
		}
		b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	b.Run("blas", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			gemm1(false, true, 32, 32, 64, 1, q, 64, k, 64, 0, s, 32)
		}
		b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
}
