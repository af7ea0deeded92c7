package engine

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/cpu"
)

// refInt8 is the exact integer reference: Σ_k (a[i][k]−shift)·q[j][k] in
// int64, then the epilogue's float operations in the kernels' order.
func refInt8(act []uint8, shift uint8, kp, n int, sa []float32, q *Int8Weights, bias []float32) []float32 {
	y := make([]float32, n*q.Rows)
	for i := 0; i < n; i++ {
		for j := 0; j < q.Rows; j++ {
			var acc int64
			for k := 0; k < q.Cols; k++ {
				acc += int64(int(act[i*kp+k])-int(shift)) * int64(q.Q[j*q.Cols+k])
			}
			if acc != int64(int32(acc)) {
				panic("accumulator overflow in the reference")
			}
			b := float32(0)
			if bias != nil {
				b = bias[j]
			}
			y[i*q.Rows+j] = float32(float32(acc)*(q.Scale[j]*sa[i])) + b
		}
	}
	return y
}

// randInt8Case draws quantized weights and activations shifted as sch
// says, of the given shape, a third of them at the extremes (±64, and 1
// and 255 or 127) where vpmaddubsw's int16 sums come closest to
// saturating.
func randInt8Case(rng *rand.Rand, sch actScheme, n, in, out int) (act []uint8, nPad int, sa []float32, q *Int8Weights, bias []float32) {
	qv := make([]int8, out*in)
	for i := range qv {
		switch rng.IntN(3) {
		case 0:
			qv[i] = int8(WeightQMax * (2*rng.IntN(2) - 1))
		default:
			qv[i] = int8(rng.IntN(2*WeightQMax+1) - WeightQMax)
		}
	}
	scale := make([]float32, out)
	for i := range scale {
		scale[i] = rng.Float32() / 64
	}
	q = NewInt8Weights(qv, scale, out, in)
	kp := q.k4 * 4
	nPad = (n + tileRows - 1) / tileRows * tileRows
	act = make([]uint8, nPad*kp)
	sa = make([]float32, nPad)
	for i := range act {
		r, k := i/kp, i%kp
		switch {
		case r >= n || k >= in:
			act[i] = sch.shift
		case rng.IntN(3) == 0:
			act[i] = uint8(int(sch.shift) + int(sch.qmax)*(2*rng.IntN(2)-1))
		default:
			act[i] = uint8(int(sch.shift) + rng.IntN(2*int(sch.qmax)+1) - int(sch.qmax))
		}
	}
	for i := 0; i < n; i++ {
		sa[i] = rng.Float32() / 127
	}
	if rng.IntN(2) == 0 {
		bias = make([]float32, out)
		for i := range bias {
			bias[i] = rng.Float32() - 0.5
		}
	}
	return
}

func TestInt8KernelsMatchIntegerReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 16))
	shapes := [][3]int{{1, 1, 1}, {4, 4, 16}, {3, 5, 17}, {7, 33, 31}, {13, 256, 40}, {160, 64, 48}, {9, 1024, 16}, {5, 257, 129}}
	for i := 0; i < 12; i++ {
		shapes = append(shapes, [3]int{1 + rng.IntN(40), 1 + rng.IntN(300), 1 + rng.IntN(70)})
	}
	checkInt8KernelList(t)
	type run struct {
		kern int8TileKernel
		sch  actScheme
	}
	var runs []run
	for _, kern := range int8Kernels {
		runs = append(runs, run{kern, actScheme{ActQMax, actShift}}, run{kern, actScheme{ActQMax7, actShift7}})
		if kern.Pairs != nil {
			runs = append(runs, run{*kern.Pairs, actScheme{ActQMax7, actShift7}})
		}
	}
	for _, r := range runs {
		for _, threads := range []int{1, 3} {
			g := NewInference()
			g.SetThreads(threads)
			for _, sh := range shapes {
				n, in, out := sh[0], sh[1], sh[2]
				act, _, sa, q, bias := randInt8Case(rng, r.sch, n, in, out)
				want := refInt8(act, r.sch.shift, q.k4*4, n, sa, q, bias)
				got := make([]float32, n*out)
				g.int8Product(r.kern, act, n, sa, q, q.compFor(r.sch.shift), bias, got)
				for i := range want {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("kernel %s, %d-bit activations, %d threads, n=%d in=%d out=%d: y[%d] = %v, reference %v",
							r.kern.Name, bitsOf(r.sch), threads, n, in, out, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func bitsOf(sch actScheme) int {
	if sch.shift == actShift7 {
		return 7
	}
	return 8
}

// checkInt8KernelList fails when this CPU could run a kernel the list
// lacks, and logs which kernels the tests run here and which they cannot.
func checkInt8KernelList(t *testing.T) {
	t.Helper()
	has := map[string]bool{}
	var ran []string
	for _, k := range int8Kernels {
		id, _, _ := strings.Cut(k.Name, " ")
		has[id] = true
		ran = append(ran, k.Name)
	}
	t.Logf("int8 kernels tested on this CPU: %s", strings.Join(ran, "; "))
	// what the CPU reports, read here rather than through the flags the
	// kernel list was built from (a purego build runs none of the assembly)
	amd64, avx2 := runtime.GOARCH == "amd64" && !puregoBuild, cpu.X86.HasAVX2 && cpu.X86.HasFMA
	for _, k := range []struct {
		id   string
		runs bool
	}{{"avx512-vnni", amd64 && avx2 && cpu.X86.HasAVX512VNNI && cpu.X86.HasAVX512VL}, {"avx2", amd64 && avx2}, {"go", true}} {
		switch {
		case k.runs && !has[k.id]:
			t.Errorf("this CPU runs the %s int8 kernel, but the kernel list lacks it", k.id)
		case !k.runs && has[k.id]:
			t.Errorf("the kernel list holds %s, which this CPU cannot run", k.id)
		case !k.runs:
			t.Logf("int8 kernel %s not tested: this CPU (or build) lacks it", k.id)
		}
	}
}

// STRATA_INT8 names a kernel by its first word; the best one otherwise.
func TestChooseInt8Kernel(t *testing.T) {
	var allowed []int8TileKernel
	for _, k := range int8Kernels {
		if k.Allowed() {
			allowed = append(allowed, k)
		}
	}
	for _, env := range []string{"", "nonsense", "avx", "avx512"} {
		if k := chooseInt8Kernel(env); k.Name != allowed[0].Name {
			t.Errorf("STRATA_INT8=%q chose %s, want the best STRATA_ISA allows, %s", env, k.Name, allowed[0].Name)
		}
	}
	for _, want := range allowed {
		id, _, _ := strings.Cut(want.Name, " ")
		if k := chooseInt8Kernel(id); k.Name != want.Name {
			t.Errorf("STRATA_INT8=%s chose %s", id, k.Name)
		}
	}
}

// The int8 Linear follows the float one within the quantization error,
// with every kernel in turn, and the kernels agree bit for bit.
func TestLinearInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	defer func(k int8TileKernel) { int8Kernel = k }(int8Kernel)
	for _, sh := range [][3]int{{5, 37, 19}, {32, 256, 100}, {1, 8, 3}} {
		n, in, out := sh[0], sh[1], sh[2]
		x, w, b := NewTensor(n, in), NewTensor(out, in), NewTensor(out)
		Normal(x, 1, rng)
		Normal(w, 0.1, rng)
		Normal(b, 0.1, rng)
		f := NewInference()
		want := f.Linear(x, w, b)
		// each activation width: within a few percent of float32, the
		// same floats from every kernel, and 7 bits not 8 (the width
		// reaches the quantization)
		var firsts [2][]float32
		for wi, bits := range []int{8, 7} {
			for _, kern := range int8Kernels {
				int8Kernel = kern
				g := NewInference()
				g.SetCompute(ComputeType{Products: FormatInt8, Cache: FormatF32, Int8Bits: bits})
				got := g.Linear(x, w, b)
				var errSum, refSum float64
				for i := range want.Data {
					d := float64(got.Data[i] - want.Data[i])
					errSum += d * d
					refSum += float64(want.Data[i]) * float64(want.Data[i])
				}
				if rel := math.Sqrt(errSum / refSum); rel > 0.03 {
					t.Errorf("%s, %d bits, %v: relative error %.4f of int8 against float32", kern.Name, bits, sh, rel)
				}
				if firsts[wi] == nil {
					firsts[wi] = append([]float32(nil), got.Data...)
					continue
				}
				for i := range firsts[wi] {
					if firsts[wi][i] != got.Data[i] {
						t.Fatalf("%s differs from %s at %d with %d bits: %v vs %v", kern.Name, int8Kernels[0].Name, i, bits, got.Data[i], firsts[wi][i])
					}
				}
			}
		}
		if slices.Equal(firsts[0], firsts[1]) {
			t.Errorf("%v: 7- and 8-bit activations gave the same outputs", sh)
		}
	}
}

func TestQuantizeWeightsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	w := NewTensor(9, 13)
	Normal(w, 1, rng)
	clear(w.Data[13:26]) // an all-zero row
	q := QuantizeWeights(w.Data, 9, 13)
	deq := make([]float32, len(w.Data))
	q.Dequantize(deq)
	for r := 0; r < 9; r++ {
		for k := 0; k < 13; k++ {
			if d := abs32(deq[r*13+k] - w.Data[r*13+k]); d > q.Scale[r]/2*1.0001 {
				t.Fatalf("row %d col %d: %v dequantized to %v (scale %v)", r, k, w.Data[r*13+k], deq[r*13+k], q.Scale[r])
			}
		}
	}
	// quantizing the dequantized weights gives the same integers and scales
	q2 := QuantizeWeights(deq, 9, 13)
	for i := range q.Q {
		if q.Q[i] != q2.Q[i] {
			t.Fatalf("requantized value %d: %d, was %d", i, q2.Q[i], q.Q[i])
		}
	}
	for i := range q.Scale {
		if q.Scale[i] != q2.Scale[i] {
			t.Fatalf("requantized scale %d: %v, was %v", i, q2.Scale[i], q.Scale[i])
		}
	}
}

// The vectorised activation quantization gives the pure-Go bytes and
// scale, halves rounded to even, at every length.
func TestQuantizeActsPaths(t *testing.T) {
	if absMaxFast == nil {
		t.Skip("no vectorised quantization on this CPU")
	}
	for _, sch := range []actScheme{{ActQMax, actShift}, {ActQMax7, actShift7}} {
		testQuantizeActsPaths(t, sch)
	}
}

func testQuantizeActsPaths(t *testing.T, sch actScheme) {
	rng := rand.New(rand.NewPCG(9, 9))
	fastMax, fastQ := absMaxFast, quantizeFast
	defer func() { absMaxFast, quantizeFast = fastMax, fastQ }()
	q := sch.qmax
	rows := [][]float32{{q, 0.5, 1.5, -2.5, -0.5, 2.5, 3.5, -q, q - 0.5}}
	for _, n := range []int{1, 7, 8, 9, 16, 31, 256, 1024} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64()) * 3
		}
		rows = append(rows, x)
	}
	for _, x := range rows {
		kp := (len(x) + 3) &^ 3
		got, want := make([]uint8, kp), make([]uint8, kp)
		absMaxFast, quantizeFast = fastMax, fastQ
		sg := quantizeActs(got, x, sch)
		absMaxFast, quantizeFast = nil, nil
		sw := quantizeActs(want, x, sch)
		if sg != sw {
			t.Fatalf("%d-bit, n=%d: scale %v, pure Go %v", bitsOf(sch), len(x), sg, sw)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%d-bit, n=%d: byte %d is %d, pure Go %d (x=%v)", bitsOf(sch), len(x), i, got[i], want[i], x[min(i, len(x)-1)])
			}
		}
	}
	// halves go to even: 0.5 → 0, 1.5 → 2, -2.5 → -2, q−0.5 → q−1 (q odd)
	b := make([]uint8, 12)
	quantizeActs(b, rows[0], sch)
	for i, w := range []int{int(q), 0, 2, -2, 0, 2, 4, -int(q), int(q) - 1} {
		if int(b[i])-int(sch.shift) != w {
			t.Fatalf("%d-bit: value %v quantized to %d, want %d", bitsOf(sch), rows[0][i], int(b[i])-int(sch.shift), w)
		}
	}
}
