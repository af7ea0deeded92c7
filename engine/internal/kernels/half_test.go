package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/cpu"
)

// Every half widens exactly and narrows back to itself.
func TestHalfRoundTrip(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := uint16(i)
		f := Float32FromHalf(h)
		exp, man := int(h>>10)&0x1f, float64(h&0x3ff)
		var want float64
		switch {
		case exp == 0x1f && man != 0:
			if !math.IsNaN(float64(f)) {
				t.Fatalf("half %#04x widens to %v, want NaN", h, f)
			}
			if !math.IsNaN(float64(Float32FromHalf(HalfFromFloat32(f)))) {
				t.Fatalf("NaN %#04x does not narrow to NaN", h)
			}
			continue
		case exp == 0x1f:
			want = math.Inf(1)
		case exp == 0:
			want = man * math.Pow(2, -24)
		default:
			want = (1 + man/1024) * math.Pow(2, float64(exp-15))
		}
		if h&0x8000 != 0 {
			want = -want
		}
		if float64(f) != want || math.Signbit(float64(f)) != (h&0x8000 != 0) {
			t.Fatalf("half %#04x widens to %v, want %v", h, f, want)
		}
		if back := HalfFromFloat32(f); back != h {
			t.Fatalf("half %#04x → %v → %#04x", h, f, back)
		}
	}
}

// randomFloat32 draws values of every magnitude halves meet: subnormal,
// normal, overflowing, ties.
func randomFloat32(r *rand.Rand) float32 {
	switch r.IntN(4) {
	case 0: // any bit pattern of a finite float of half range and beyond
		return math.Float32frombits(r.Uint32()&0x80000000 | uint32(100+r.IntN(60))<<23 | r.Uint32()&0x7fffff)
	case 1: // exactly halfway between two halves
		h := uint16(r.IntN(0x7bff))
		a, b := Float32FromHalf(h), Float32FromHalf(h+1)
		return float32((float64(a) + float64(b)) / 2)
	case 2:
		return float32(r.NormFloat64())
	}
	return float32(r.NormFloat64() * 1e-6)
}

// HalfFromFloat32 gives the nearest half, ties to even; the F16C path
// gives the same bits.
func TestHalfFromFloat32Nearest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	src := make([]float32, 20000)
	for i := range src {
		src[i] = randomFloat32(r)
	}
	src = append(src, 65504, 65519.99, 65520, -65520, 1e-8, -1e-8, float32(math.Inf(1)), 0, float32(math.Copysign(0, -1)))
	for _, f := range src {
		h := HalfFromFloat32(f)
		if h&0x7fff == 0x7c00 { // Inf: only beyond the largest half's rounding range
			if math.Abs(float64(f)) < 65520 {
				t.Fatalf("%v rounds to Inf", f)
			}
			continue
		}
		got := float64(Float32FromHalf(h))
		err := math.Abs(float64(f) - got)
		for _, nb := range []uint16{h + 1, h - 1} {
			if nb&0x7c00 == 0x7c00 || (h&0x7fff == 0 && nb == h-1) {
				continue
			}
			e := math.Abs(float64(f) - float64(Float32FromHalf(nb)))
			if e < err || e == err && h&1 == 1 {
				t.Fatalf("%v → %#04x (%v), but %#04x (%v) is nearer or the even tie", f, h, got, nb, Float32FromHalf(nb))
			}
		}
	}
	if !cpu.Detected.F16C {
		t.Log("no F16C: only the pure-Go conversion is tested")
		return
	}
	n := len(src) &^ 7
	fast := make([]uint16, n)
	HalvesF16C(&fast[0], &src[0], n)
	for i := 0; i < n; i++ {
		if want := HalfFromFloat32(src[i]); fast[i] != want {
			t.Fatalf("F16C: %v → %#04x, pure Go %#04x", src[i], fast[i], want)
		}
	}
}

// The gathered kernels over halves, F16C and pure Go, against a float64
// reference on the widened values, for odd shapes and strides.
func TestGatherHalfKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, dh := range []int{8, 24, 32, 64, 96} {
		for _, n := range []int{1, 3, 17} {
			ld, col, rows := 2*dh+8, 5, 40
			data := make([]uint16, rows*ld)
			for i := range data {
				data[i] = HalfFromFloat32(float32(r.NormFloat64()))
			}
			q, p := make([]float32, dh), make([]float32, n)
			for i := range q {
				q[i] = float32(r.NormFloat64())
			}
			idx := make([]int32, n)
			for j := range idx {
				idx[j] = int32(r.IntN(rows))
				p[j] = float32(r.Float64())
			}
			p[0] = 0 // a padded key: skipped by the sums
			const scale = 0.25
			wantS, wantO := make([]float64, n), make([]float64, dh)
			for j, row := range idx {
				for k := 0; k < dh; k++ {
					v := float64(Float32FromHalf(data[int(row)*ld+col+k]))
					wantS[j] += scale * float64(q[k]) * v
					wantO[k] += float64(p[j]) * v
				}
			}
			type path struct {
				name       string
				ok         bool
				scores     func(p []float32)
				sum        func(out []float32)
				sumAligned bool
			}
			paths := []path{
				{"go", true, func(s []float32) { GatherScoresHalfGo(s, q, data, col, ld, idx, scale) },
					func(o []float32) { GatherSumHalfGo(o, p, data, col, ld, idx) }, true},
				{"f16c", cpu.Detected.F16C, func(s []float32) { DotRowsHalfAVX2(&q[0], dh, &data[col], &idx[0], n, ld, &s[0], scale) },
					func(o []float32) { AxpyRowsHalfAVX2(&o[0], dh, &data[col], &idx[0], &p[0], n, ld) }, dh%32 == 0},
			}
			for _, pa := range paths {
				if !pa.ok {
					t.Logf("no F16C: %s path not tested", pa.name)
					continue
				}
				s := make([]float32, n)
				pa.scores(s)
				for j := range s {
					if math.Abs(float64(s[j])-wantS[j]) > 1e-4*(1+math.Abs(wantS[j])) {
						t.Fatalf("%s dh %d n %d: score %d = %v, want %v", pa.name, dh, n, j, s[j], wantS[j])
					}
				}
				if !pa.sumAligned {
					continue
				}
				o := make([]float32, dh)
				pa.sum(o)
				for k := range o {
					if math.Abs(float64(o[k])-wantO[k]) > 1e-4*(1+math.Abs(wantO[k])) {
						t.Fatalf("%s dh %d n %d: sum %d = %v, want %v", pa.name, dh, n, k, o[k], wantO[k])
					}
				}
			}
		}
	}
}
