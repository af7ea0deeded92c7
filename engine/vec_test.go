package engine

import (
	"math"
	"testing"
)

// The assembly kernels agree with the definitions, on lengths around the
// unrolling widths and on sub-slices that are not 16-byte aligned.
func TestVecKernels(t *testing.T) {
	for _, n := range []int{0, 1, 3, 4, 7, 8, 15, 16, 17, 31, 64, 65, 257} {
		x, y := benchData(n + 1)[1:], benchData(n + 3)[3:]
		var want float64
		for i := range x {
			want += float64(x[i]) * float64(y[i])
		}
		if got := dot(x, y); math.Abs(float64(got)-want) > 1e-5*float64(n+1) {
			t.Errorf("dot n=%d: %g, want %g", n, got, want)
		}
		dst := append([]float32(nil), y...)
		axpy(dst, x, 0.37)
		for i := range dst {
			if w := y[i] + float32(0.37*x[i]); dst[i] != w {
				t.Fatalf("axpy n=%d [%d]: %g, want %g (bit-identical to the scalar loop)", n, i, dst[i], w)
			}
		}
	}
}

var sinkVec float32

// BenchmarkVec compares the kernels with the scalar loops they replaced.
func BenchmarkVec(b *testing.B) {
	x, y := benchData(64), benchData(64)
	b.Run("dot/asm", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sinkVec += dot(x, y)
		}
	})
	b.Run("dot/scalar", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var s0, s1, s2, s3 float32
			for j := 0; j < 64; j += 4 {
				s0 += x[j] * y[j]
				s1 += x[j+1] * y[j+1]
				s2 += x[j+2] * y[j+2]
				s3 += x[j+3] * y[j+3]
			}
			sinkVec += (s0 + s1) + (s2 + s3)
		}
	})
	b.Run("axpy/asm", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			axpy(x, y, 1e-3)
		}
	})
	b.Run("axpy/scalar", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j := range x {
				x[j] += 1e-3 * y[j]
			}
		}
	})
}

// The gathered kernels of StepAttention (assembly on amd64) agree with
// their definitions, skip zero weights even over non-finite rows, and
// keep a NaN weight visible.
func TestGatherKernels(t *testing.T) {
	const ld, col = 120, 5
	for _, dh := range []int{8, 16, 24, 32, 64, 96, 12} {
		data := benchData(ld * 7)
		idx := []int32{3, 0, 6, 3, 1}
		q, p := benchData(dh), benchData(len(idx))
		scores := make([]float32, len(idx))
		gatherScores(scores, q, data, col, ld, idx, 0.5)
		for j, r := range idx {
			var want float64
			for k := 0; k < dh; k++ {
				want += float64(q[k]) * float64(data[int(r)*ld+col+k])
			}
			if !near(float64(scores[j]), 0.5*want, 1e-5) {
				t.Fatalf("dh=%d: score %d = %v, want %v", dh, j, scores[j], 0.5*want)
			}
		}
		p[2] = 0
		for k := 0; k < dh; k++ {
			data[6*ld+col+k] = float32(math.Inf(1)) // only row 6 has weight 0
		}
		out := benchData(dh)
		base := append([]float32(nil), out...)
		gatherSum(out, p, data, col, ld, idx)
		for k := 0; k < dh; k++ {
			want := float64(base[k])
			for j, r := range idx {
				if p[j] != 0 {
					want += float64(p[j]) * float64(data[int(r)*ld+col+k])
				}
			}
			if !near(float64(out[k]), want, 1e-5) {
				t.Fatalf("dh=%d: out[%d] = %v, want %v", dh, k, out[k], want)
			}
		}
		p[0] = float32(math.NaN())
		gatherSum(out, p, data, col, ld, idx)
		if !math.IsNaN(float64(out[0])) {
			t.Fatalf("dh=%d: a NaN weight gave %v", dh, out[0])
		}
	}
}
