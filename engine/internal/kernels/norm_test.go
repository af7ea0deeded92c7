package kernels

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Layer norm's row kernels in AVX2 equal their Go references bit for bit,
// on rows with and without a tail past a multiple of 4 (of 8), with and
// without a gain, with one or both gradient accumulators.
func TestNormRowsMatchGo(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{1, 3, 4, 5, 8, 13, 256, 259} {
		xs, ds, hs, gs := randF32(r, d), randF32(r, d), randF32(r, d), randF32(r, d)
		for i := range xs {
			xs[i] = xs[i]*3 + 7 // a mean away from 0
		}
		n4 := d &^ 3
		type out struct {
			s, q        [4]float64
			ys, dx, dx1 []float32
			h, g, b     []float32
			h1, g1      []float32
		}
		run := func(goRef bool) out {
			var o out
			o.ys, o.h, o.h1 = make([]float32, d), make([]float32, d), make([]float32, d)
			o.dx, o.dx1 = append([]float32(nil), ds...), append([]float32(nil), ds...) // dx accumulates onto something
			o.g, o.b, o.g1 = append([]float32(nil), hs...), append([]float32(nil), gs...), append([]float32(nil), hs...)
			if goRef {
				Sum4Go(xs[:n4], &o.s)
				Sqdev4Go(xs[:n4], 7.1, &o.q)
				NormAffineGo(o.ys, xs, gs, hs, 7.1, 0.37)
				LnBackRowGo(o.h, xs, ds, o.g, o.b, 7.1, 0.37)
				LnBackRowGo(o.h1, xs, ds, o.g1, nil, 7.1, 0.37)
				LnRowDxGo(o.dx, ds, hs, gs, make([]float32, d), 0.37)
				LnRowDxGo(o.dx1, ds, hs, nil, make([]float32, d), 0.37)
				return o
			}
			Sum4(xs[:n4], &o.s)
			Sqdev4(xs[:n4], 7.1, &o.q)
			NormAffine(o.ys, xs, gs, hs, 7.1, 0.37)
			LnBackRow(o.h, xs, ds, o.g, o.b, 7.1, 0.37)
			LnBackRow(o.h1, xs, ds, o.g1, nil, 7.1, 0.37)
			LnRowDx(o.dx, ds, hs, gs, make([]float32, d), 0.37)
			LnRowDx(o.dx1, ds, hs, nil, make([]float32, d), 0.37)
			return o
		}
		want := run(true)
		var got out
		if !withAVX2(t, func() { got = run(false) }) {
			return
		}
		for i := range want.s {
			if math.Float64bits(got.s[i]) != math.Float64bits(want.s[i]) || math.Float64bits(got.q[i]) != math.Float64bits(want.q[i]) {
				t.Fatalf("d=%d: Sum4/Sqdev4 lane %d: %v %v, Go %v %v", d, i, got.s[i], got.q[i], want.s[i], want.q[i])
			}
		}
		for _, c := range []struct {
			name      string
			got, want []float32
		}{
			{"NormAffine", got.ys, want.ys}, {"LnBackRow x̂", got.h, want.h}, {"LnBackRow gain", got.g, want.g},
			{"LnBackRow bias", got.b, want.b}, {"LnBackRow x̂ (gain only)", got.h1, want.h1},
			{"LnBackRow gain (gain only)", got.g1, want.g1}, {"LnRowDx", got.dx, want.dx}, {"LnRowDx (no gain)", got.dx1, want.dx1},
		} {
			sameBits(t, c.name, c.got, c.want)
		}
	}
}

// BenchmarkNormRows compares layer norm's row kernels (forward statistics
// and normalisation, backward sums and dx) in AVX2 with the Go references
// at the msc-small shard shape, 1,024 rows of 256.
//
//	go test ./engine/internal/kernels -run '^$' -bench NormRows
func BenchmarkNormRows(b *testing.B) {
	const n, d = 1024, 256
	x, dy := testData(n*d), testData(n*d)
	gain, bias := testData(d), testData(d)
	y, h, gd, dx := make([]float32, d), make([]float32, d), make([]float32, d), make([]float32, d)
	accG, accB := make([]float32, d), make([]float32, d)
	rows := func() {
		for r := 0; r < n; r++ {
			xs, ds := x[r*d:(r+1)*d], dy[r*d:(r+1)*d]
			var s [4]float64
			Sum4(xs, &s)
			Sqdev4(xs, 0.1, &s)
			NormAffine(y, xs, gain, bias, 0.1, 1.3)
			LnBackRow(h, xs, ds, accG, accB, 0.1, 1.3)
			LnRowDx(dx, ds, h, gain, gd, 1.3)
		}
	}
	b.Run("asm", func(b *testing.B) {
		if !cpuHasAVX2() {
			b.Skip("no AVX2+FMA")
		}
		defer func(v bool) { avx2 = v }(avx2)
		avx2 = true
		for i := 0; i < b.N; i++ {
			rows()
		}
	})
	b.Run("go", func(b *testing.B) {
		defer func(v bool) { avx2 = v }(avx2)
		avx2 = false
		for i := 0; i < b.N; i++ {
			rows()
		}
	})
}
