package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// refLinear64 is x·Wᵀ + b in float64.
func refLinear64(x, w, b []float32, n, k, out int) []float64 {
	y := make([]float64, n*out)
	for i := 0; i < n; i++ {
		for j := 0; j < out; j++ {
			s := 0.0
			if b != nil {
				s = float64(b[j])
			}
			for p := 0; p < k; p++ {
				s += float64(x[i*k+p]) * float64(w[j*k+p])
			}
			y[i*out+j] = s
		}
	}
	return y
}

func randF32(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// checkClose compares y with the float64 reference: float32 accumulation
// over k terms of unit variance errs by about ε·√k relative to the sum of
// magnitudes; 1e-5·k bounds it.
func checkClose(t *testing.T, what string, y []float32, ref []float64, k int) {
	t.Helper()
	tol := 1e-5 * float64(k+1)
	for i := range ref {
		if d := math.Abs(float64(y[i]) - ref[i]); !(d <= tol) {
			t.Fatalf("%s: y[%d] = %v, reference %v (|diff| %g > %g)", what, i, y[i], ref[i], d, tol)
		}
	}
}

var packedShapes = []struct{ n, k, out int }{
	{1, 1, 1}, {1, 7, 5}, {1, 256, 16}, {5, 3, 17}, {6, 16, 16}, {7, 33, 31},
	{13, 5, 48}, {40, 256, 100}, {12, 1024, 33}, {161, 19, 47}, {5, 256, 8000},
	// an odd number (7) of whole tiles in one kernel call, k = 1, k = 7
	// and k = 6 (not multiples of 4): the AVX-512 kernel's pairs and its
	// last single tile
	{45, 1, 32}, {42, 7, 48}, {30, 6, 16},
}

// TestPackedKernels checks every kernel this CPU can run (the pure-Go one
// included) against a float64 reference, on shapes whose rows, inputs and
// outputs are not multiples of the 6×16 tile, with and without bias, on
// one and three threads.
func TestPackedKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, kern := range f32Kernels {
		for _, s := range packedShapes {
			x, w, b := randF32(rng, s.n*s.k), randF32(rng, s.out*s.k), randF32(rng, s.out)
			p := PackF32(w, s.out, s.k)
			for _, bias := range [][]float32{nil, b} {
				ref := refLinear64(x, w, bias, s.n, s.k, s.out)
				for _, threads := range []int{1, 3} {
					g := NewInference()
					g.SetThreads(threads)
					y := make([]float32, s.n*s.out)
					for i := range y {
						y[i] = float32(math.NaN()) // every output must be written
					}
					g.packedProduct(kern, x, s.n, p, bias, y)
					checkClose(t, fmt.Sprintf("%s %dx%dx%d bias=%v threads=%d", kern.Name, s.n, s.k, s.out, bias != nil, threads), y, ref, s.k)
				}
			}
		}
	}
}

// TestPackedTileCalls calls every kernel's tile function directly, on
// 1-7 tiles, k from 1 to 13 and strides wider than the rows (1,024 among
// them: the AVX-512 kernel's rows 4 KiB apart), with a bias and without
// (adding to what out holds, as input gradients use it), against a float64
// reference; what lies between the rows must stay untouched.
func TestPackedTileCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, kern := range f32Kernels {
		for _, tiles := range []int{1, 2, 3, 4, 5, 7} {
			for _, k := range []int{1, 2, 3, 4, 5, 7, 8, 13} {
				for _, c := range []struct {
					lda      int
					withBias bool
				}{{k + 3, false}, {k + 3, true}, {1024, false}, {1024, true}} {
					withBias := c.withBias
					r, lda, ldo := f32TileRows*tiles, c.lda, f32PanelCols+5
					a, w, b := randF32(rng, r*lda), randF32(rng, k*f32PanelCols), randF32(rng, f32PanelCols)
					out := randF32(rng, r*ldo)
					ref := make([]float64, len(out))
					for i := range out {
						ref[i] = float64(out[i])
					}
					var bias []float32
					if withBias {
						bias = b
					}
					for i := 0; i < r; i++ {
						for j := 0; j < f32PanelCols; j++ {
							s := ref[i*ldo+j] // accumulate
							if bias != nil {
								s = float64(bias[j])
							}
							for p := 0; p < k; p++ {
								s += float64(a[i*lda+p]) * float64(w[p*f32PanelCols+j])
							}
							ref[i*ldo+j] = s
						}
					}
					kern.Tile(a, lda, w, k, out, ldo, bias, tiles)
					// 1e-5·(k+1) as checkClose, and a prior value of
					// unit size in the accumulating case
					checkClose(t, fmt.Sprintf("%s tiles=%d k=%d lda=%d bias=%v", kern.Name, tiles, k, lda, withBias), out, ref, k+1)
				}
			}
		}
	}
}

// TestPackedKernelsAgree: the assembly kernels equal the pure-Go one to
// rounding, and results do not depend on the thread count.
func TestPackedThreadsIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, k, out := 37, 64, 200
	x, w, b := randF32(rng, n*k), randF32(rng, out*k), randF32(rng, out)
	p := PackF32(w, out, k)
	for _, kern := range f32Kernels {
		var first []float32
		for _, threads := range []int{1, 2, 4} {
			g := NewInference()
			g.SetThreads(threads)
			y := make([]float32, n*out)
			g.packedProduct(kern, x, n, p, b, y)
			if first == nil {
				first = y
				continue
			}
			for i := range y {
				if y[i] != first[i] {
					t.Fatalf("%s: threads=%d y[%d] = %v, threads=1 gave %v", kern.Name, threads, i, y[i], first[i])
				}
			}
		}
	}
}

// TestLinearPackedInvalidation: an inference Linear follows its weight
// when the weight is rewritten in place (an optimizer step), edited in one
// value and announced with WeightsChanged, or re-sliced.
func TestLinearPackedInvalidation(t *testing.T) {
	if f32Kernel.Tile == nil {
		t.Skip("inference Linear runs on OpenBLAS here (STRATA_SGEMM=blas or no kernel)")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	n, k, out := 9, 40, 70
	x := FromData(randF32(rng, n*k), n, k)
	w := FromData(randF32(rng, out*k), out, k)
	check := func(what string) {
		t.Helper()
		g := NewInference()
		y := g.Linear(x, w, nil)
		checkClose(t, what, y.Data, refLinear64(x.Data, w.Data, nil, n, k, out), k)
	}
	check("first use")
	p0 := w.f32p.Load()
	check("second use")
	if w.f32p.Load() != p0 {
		t.Fatal("the packed weight was not reused")
	}
	for i := range w.Data { // a whole-matrix update
		w.Data[i] = w.Data[i]*0.5 + 0.1
	}
	check("after an in-place update")
	w.Data[3*k+1] += 10 // one value, outside the fingerprint's sample
	w.WeightsChanged()
	check("after WeightsChanged")
	w.Data = randF32(rng, out*k)
	check("after replacing Data")
}

// TestLinearPackedMatchesBLAS: an inference graph's Linear, on each kernel
// forced in turn (OpenBLAS included), follows the float64 reference.
func TestLinearPackedMatchesBLAS(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n, k, out := 23, 96, 130
	x := FromData(randF32(rng, n*k), n, k)
	w := FromData(randF32(rng, out*k), out, k)
	b := FromData(randF32(rng, out), out)
	ref := refLinear64(x.Data, w.Data, b.Data, n, k, out)
	defer func(k f32TileKernel) { f32Kernel = k }(f32Kernel)
	for _, kern := range append([]f32TileKernel{kernels.F32BLAS}, f32Kernels...) {
		f32Kernel = kern
		yi := NewInference().Linear(x, w, b)
		checkClose(t, "inference Linear on "+kern.Name, yi.Data, ref, k)
	}
}

// TestLinearReLUPacked: at inference LinearReLU (packed kernel, bias added
// in the kernel) equals ReLU(Linear) bit for bit, and follows the float64
// reference.
func TestLinearReLUPacked(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n, k, out := 11, 48, 70
	x := FromData(randF32(rng, n*k), n, k)
	w := FromData(randF32(rng, out*k), out, k)
	b := FromData(randF32(rng, out), out)
	g := NewInference()
	fused, chain := g.LinearReLU(x, w, b), g.ReLU(g.Linear(x, w, b))
	ref := refLinear64(x.Data, w.Data, b.Data, n, k, out)
	for i := range ref {
		ref[i] = max(ref[i], 0)
	}
	checkClose(t, "LinearReLU", fused.Data, ref, k)
	for i := range fused.Data {
		if fused.Data[i] != chain.Data[i] {
			t.Fatalf("LinearReLU[%d] = %v, ReLU(Linear) %v", i, fused.Data[i], chain.Data[i])
		}
	}
}

// TestLinearReLUInt8: in an int8 graph LinearReLU makes its product in int8,
// as Linear does (it once fell through to float32), so it equals
// ReLU(Linear) there bit for bit and differs from the float32 product.
func TestLinearReLUInt8(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n, k, out := 9, 64, 40
	x := FromData(randF32(rng, n*k), n, k)
	w := FromData(randF32(rng, out*k), out, k)
	b := FromData(randF32(rng, out), out)
	g := NewInference()
	g.SetCompute(ComputeType{Products: FormatInt8, Cache: FormatF32}) // weights quantized on first use
	fused, chain := g.LinearReLU(x, w, b), g.ReLU(g.Linear(x, w, b))
	for i := range fused.Data {
		if fused.Data[i] != chain.Data[i] {
			t.Fatalf("int8 LinearReLU[%d] = %v, ReLU(Linear) %v", i, fused.Data[i], chain.Data[i])
		}
	}
	f := NewInference().LinearReLU(x, w, b)
	same := true
	for i := range f.Data {
		same = same && f.Data[i] == fused.Data[i]
	}
	if same {
		t.Fatal("int8 LinearReLU equals the float32 product: the int8 path was not taken")
	}
}
