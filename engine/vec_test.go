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
			if w := y[i] + 0.37*x[i]; dst[i] != w {
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
