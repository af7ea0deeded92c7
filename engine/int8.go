package engine

import (
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// Int8 inference: weights quantized per output row, activations per row on
// the fly, products accumulated in int32 and dequantised into the float32
// epilogue (scales, bias). See docs/decoding.md ("int8") for the scheme.
//
// The AVX2 kernel multiplies with vpmaddubsw, which takes one operand as
// unsigned bytes, the other as signed bytes, and adds adjacent products into
// a saturating int16. Activations are quantized symmetrically to
// [-qmax, qmax] and stored shifted by +shift as unsigned bytes; the shift
// adds shift·Σ_k w[j][k] to every output of column j, which is subtracted
// again (the compensation term, computed once from the weights). Weights are
// quantized to [-64, 64] ("7-bit") so that no int16 step can saturate and
// the int32 result is exact (the tests check it against an integer
// reference at the extremes). Two activation schemes (Graph.SetInt8Bits):
//
//   - 8-bit activations, [-127, 127] shifted by 128: a pair sum reaches
//     2·255·64 = 32640, so each vpmaddubsw result goes to int32 at once
//     (vpmaddwd with ones): two multiplier-port instructions per 32
//     products, 2x float32 FMA's rate at best on AVX2;
//   - 7-bit activations, [-63, 63] shifted by 64: a pair sum is at most
//     2·127·64 = 16256, so two groups' int16 results add exactly (vpaddw)
//     before one vpmaddwd: three multiplier-port instructions per 64
//     products, 2.67x float32's rate. fbgemm (PyTorch) also quantizes
//     activations to 7 bits on AVX2 ("reduce_range"), with one scale per
//     tensor where strata has one per row.
//
// VNNI's vpdpbusd and the Go kernel run either scheme; every kernel gives
// the same integers, hence the same floats, for the same scheme.

const (
	// WeightQMax is the largest magnitude of a quantized weight.
	WeightQMax = 64
	// ActQMax is the largest magnitude of an 8-bit quantized activation,
	// actShift the shift that makes it unsigned for vpmaddubsw; ActQMax7
	// and actShift7 are the 7-bit scheme's.
	ActQMax   = 127
	actShift  = 128
	ActQMax7  = 63
	actShift7 = 64
	// panelCols is the number of output columns one packed panel holds
	// (two 8-lane int32 vectors), tileRows the activation rows of a tile.
	panelCols = 16
	tileRows  = 4
)

// Int8Weights is a weight matrix (Rows outputs × Cols inputs) quantized per
// output row: W[r][k] ≈ Q[r·Cols+k]·Scale[r].
type Int8Weights struct {
	Rows, Cols int
	// Q is nil in forms quantized on the fly by an int8 graph (the packed
	// copy serves the kernels).
	Q     []int8
	Scale []float32

	k4     int     // inner dimension in groups of 4 (Cols rounded up to an even count)
	packed []int8  // panels of panelCols rows, k4 groups of 4 bytes per row
	comp   []int32 // actShift·Σ_k Q[r][k], panels·panelCols long
	comp7  []int32 // actShift7·Σ_k Q[r][k], the same for 7-bit activations
	scale  []float32
}

// QuantizeWeights quantizes the rows×cols row-major matrix w per row to
// [-WeightQMax, WeightQMax] with Scale[r] = max_k |w[r][k]| / WeightQMax.
func QuantizeWeights(w []float32, rows, cols int) *Int8Weights {
	if len(w) != rows*cols {
		panic(fmt.Sprintf("engine.QuantizeWeights: %d values for %d×%d", len(w), rows, cols))
	}
	q := make([]int8, rows*cols)
	scale := make([]float32, rows)
	for r := 0; r < rows; r++ {
		scale[r] = quantizeRow(q[r*cols:(r+1)*cols], w[r*cols:(r+1)*cols], WeightQMax)
	}
	return NewInt8Weights(q, scale, rows, cols)
}

// NewInt8Weights wraps already quantized weights (a model file's) and packs
// them for the kernels. Values must lie in [-WeightQMax, WeightQMax].
func NewInt8Weights(q []int8, scale []float32, rows, cols int) *Int8Weights {
	if len(q) != rows*cols || len(scale) != rows {
		panic(fmt.Sprintf("engine.NewInt8Weights: %d values and %d scales for %d×%d", len(q), len(scale), rows, cols))
	}
	for _, v := range q {
		if v < -WeightQMax || v > WeightQMax {
			panic(fmt.Sprintf("engine.NewInt8Weights: value %d outside ±%d", v, WeightQMax))
		}
	}
	// k4 >= 2 and even: the assembly loops run at least once, and the
	// 7-bit kernel takes groups two at a time (padding inputs are zero)
	w := &Int8Weights{Rows: rows, Cols: cols, Q: q, Scale: scale, k4: max(2, (cols+7)/8*2)}
	w.pack()
	return w
}

// quantizeRow writes round(x/s) to dst with s = max|x|/qmax and returns s
// (0 for an all-zero row, whose values are then all 0).
func quantizeRow(dst []int8, x []float32, qmax float32) float32 {
	m := float32(0)
	for _, v := range x {
		m = max(m, abs32(v))
	}
	if m == 0 || m != m || m > math.MaxFloat32 {
		clear(dst)
		if m == 0 {
			return 0
		}
		panic(fmt.Sprintf("engine: cannot quantize a row holding %v", m))
	}
	s := m / qmax
	inv := qmax / m
	for k, v := range x {
		dst[k] = int8(roundEven(v * inv))
	}
	return s
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// roundEven rounds to the nearest integer, halves to even, as the AVX2
// conversion does under the default rounding mode.
func roundEven(x float32) int32 { return int32(math.RoundToEven(float64(x))) }

// panels is the number of packed panels.
func (w *Int8Weights) panels() int { return (w.Rows + panelCols - 1) / panelCols }

// pack lays the weights out for the kernel: panel p holds rows
// [16p, 16p+16); within it, for each group g of 4 inputs, the 4 bytes of
// row 0, then row 1, ... row 15 (64 bytes), so one vpbroadcastd of 4
// activation bytes multiplies 8 rows' 4 weights per vector. Missing rows
// and inputs are zero.
func (w *Int8Weights) pack() {
	np := w.panels()
	w.packed = make([]int8, np*w.k4*panelCols*4)
	w.comp = make([]int32, np*panelCols)
	w.comp7 = make([]int32, np*panelCols)
	w.scale = make([]float32, np*panelCols)
	copy(w.scale, w.Scale)
	for r := 0; r < w.Rows; r++ {
		p, c := r/panelCols, r%panelCols
		base := p * w.k4 * panelCols * 4
		sum := int32(0)
		for k, v := range w.Q[r*w.Cols : (r+1)*w.Cols] {
			w.packed[base+(k/4)*panelCols*4+c*4+k%4] = v
			sum += int32(v)
		}
		w.comp[r] = actShift * sum
		w.comp7[r] = actShift7 * sum
	}
}

// Dequantize writes Q·Scale into dst (Rows×Cols); Q must be present.
func (w *Int8Weights) Dequantize(dst []float32) {
	for r := 0; r < w.Rows; r++ {
		s := w.Scale[r]
		for k, v := range w.Q[r*w.Cols : (r+1)*w.Cols] {
			dst[r*w.Cols+k] = float32(v) * s
		}
	}
}

// Bytes is the memory the quantized form holds (values, packed copy,
// scales).
func (w *Int8Weights) Bytes() int {
	return len(w.Q) + len(w.packed) + 4*(len(w.Scale)+len(w.comp)+len(w.comp7)+len(w.scale))
}

// Int8 returns the tensor's quantized form, or nil.
func (t *Tensor) Int8() *Int8Weights {
	return t.int8w.Load()
}

// SetInt8 attaches a quantized form of the tensor (a 2-D weight) that
// int8 graphs multiply with instead of Data. Data stays as it is: float32
// graphs, embedding lookups and saving still read it.
func (t *Tensor) SetInt8(w *Int8Weights) {
	if w != nil && (t.ndim != 2 || w.Rows != t.shape[0] || w.Cols != t.shape[1]) {
		panic(fmt.Sprintf("engine.SetInt8: %d×%d weights for tensor %v", w.Rows, w.Cols, t.Shape()))
	}
	t.int8w.Store(w)
}

var quantizeMu sync.Mutex

// int8Of returns w's quantized form, quantizing Data on first use (once,
// even when several graphs decode with the same model concurrently).
func int8Of(w *Tensor) *Int8Weights {
	if q := w.Int8(); q != nil {
		return q
	}
	quantizeMu.Lock()
	defer quantizeMu.Unlock()
	if q := w.Int8(); q != nil {
		return q
	}
	q := QuantizeWeights(w.Data, w.shape[0], w.shape[1])
	// the packed copy is all the kernels need: drop the row-major values
	// (a quarter of the float32 weights) of a form made on the fly
	q.Q = nil
	w.SetInt8(q)
	return q
}

// ComputeInt8 reports whether Linear multiplies in int8 (int8 products in
// the ComputeType of an inference graph; weights quantized on first use
// unless a model file brought them). Recording graphs (training) never do.
func (g *Graph) ComputeInt8() bool { return g.compute.Products == FormatInt8 && !g.record }

// Int8Bits are the activation widths ComputeType.Int8Bits takes.
var Int8Bits = []int{7, 8}

// DefaultInt8Bits is the activation width of int8 graphs unless
// ComputeType.Int8Bits says otherwise: 7, the faster AVX2 kernel, whose quality
// matched 8 bits on the shipped model (docs/decoding.md).
const DefaultInt8Bits = 7

// Int8Bits reports the activation width of the graph's int8 products:
// 8 bits ([-127, 127]) or 7 ([-63, 63], the faster AVX2 kernel). Weights
// are the same in both.
func (g *Graph) Int8Bits() int {
	if g.compute.Int8Bits == 0 {
		return DefaultInt8Bits
	}
	return g.compute.Int8Bits
}

// actScheme is one activation quantization: the largest magnitude and
// the shift to unsigned bytes (a weight matrix's compensation for it:
// Int8Weights.compFor).
type actScheme struct {
	qmax  float32
	shift uint8
}

func (g *Graph) actScheme() actScheme {
	if g.Int8Bits() == 7 {
		return actScheme{ActQMax7, actShift7}
	}
	return actScheme{ActQMax, actShift}
}

// compFor is w's compensation term for activations shifted by shift.
func (w *Int8Weights) compFor(shift uint8) []int32 {
	if shift == actShift7 {
		return w.comp7
	}
	return w.comp
}

// linearInt8 is Linear's int8 path: y = dequant(quant(x)·Qᵀ) + b.
func (g *Graph) linearInt8(x, w, b *Tensor, y *Tensor) {
	q := int8Of(w)
	n, in := x.Rows(), q.Cols
	if n == 0 || q.Rows == 0 {
		return
	}
	kp := q.k4 * 4
	nPad := (n + tileRows - 1) / tileRows * tileRows
	// quantized activations (unsigned, shifted) and their row scales live
	// in arena scratch, reinterpreted as bytes
	abuf := g.arena.get((nPad*kp + 3) / 4)
	act := unsafe.Slice((*uint8)(unsafe.Pointer(&abuf[0])), nPad*kp)
	sa := g.arena.get(nPad)
	sch := g.actScheme()
	g.parallel(nPad, in, func(_, lo, hi int) {
		for r := lo; r < hi; r++ {
			row := act[r*kp : (r+1)*kp]
			if r < n {
				sa[r] = quantizeActs(row, x.Data[r*in:(r+1)*in], sch)
			} else {
				sa[r] = 0
				fillBytes(row, sch.shift)
			}
		}
	})
	var bias []float32
	if b != nil {
		bias = b.Data
	}
	g.int8Product(int8KernelFor(sch), act, n, sa, q, q.compFor(sch.shift), bias, y.Data)
}

// int8Product sets y (n×q.Rows) to the dequantised product of the shifted
// activations act (rows of q.k4·4 bytes, n rounded up to tileRows, the
// extra rows shifted zeros) with q, plus bias (nil for none), splitting
// the weight panels over the graph's threads.
func (g *Graph) int8Product(kern int8TileKernel, act []uint8, n int, sa []float32, q *Int8Weights, comp []int32, bias []float32, y []float32) {
	out, kp := q.Rows, q.k4*4
	np := q.panels()
	g.parallel(np, n*kp*panelCols, func(_, lo, hi int) {
		var tile [tileRows * panelCols]float32
		var bpad [panelCols]float32
		for p := lo; p < hi; p++ {
			c0, cols := p*panelCols, min(panelCols, out-p*panelCols)
			bp := panelBias(bias, c0, cols, &bpad)
			wp := q.packed[p*q.k4*panelCols*4:]
			r0 := 0
			if full := n / tileRows; full > 0 && cols == panelCols {
				// whole tiles straight into y, in one call
				kern.Tile(act, kp, wp, q.k4, y[c0:], out, comp[c0:], q.scale[c0:], sa, bp, full)
				r0 = full * tileRows
			}
			for ; r0 < n; r0 += tileRows {
				rows := min(tileRows, n-r0)
				kern.Tile(act[r0*kp:], kp, wp, q.k4, tile[:], panelCols, comp[c0:], q.scale[c0:], sa[r0:], bp, 1)
				for i := 0; i < rows; i++ {
					copy(y[(r0+i)*out+c0:(r0+i)*out+c0+cols], tile[i*panelCols:i*panelCols+cols])
				}
			}
		}
	})
}

// quantizeActs writes x quantized to [-sch.qmax, sch.qmax] and shifted by
// sch.shift into dst (zero-padded: shifted zeros) and returns the scale.
// The assembly covers whole groups of 8; the rest runs in Go with the same
// rounding (half to even).
func quantizeActs(dst []uint8, x []float32, sch actScheme) float32 {
	n8 := 0
	m := float32(0)
	if absMaxFast != nil {
		n8 = len(x) &^ 7
	}
	if n8 > 0 {
		m = absMaxFast(x[:n8])
	}
	for _, v := range x[n8:] {
		m = max(m, abs32(v))
	}
	if m == 0 || m != m || m > math.MaxFloat32 {
		fillBytes(dst, sch.shift)
		if m == 0 {
			return 0
		}
		// an Inf activation (NaNs are not always seen): let it show in the
		// output rather than quantizing it to garbage
		return float32(math.NaN())
	}
	inv := sch.qmax / m
	if n8 > 0 {
		quantizeFast(dst[:n8], x[:n8], inv, sch.shift)
	}
	for k := n8; k < len(x); k++ {
		dst[k] = uint8(roundEven(x[k]*inv) + int32(sch.shift))
	}
	fillBytes(dst[len(x):], sch.shift)
	return m / sch.qmax
}

func fillBytes(b []uint8, v uint8) {
	for i := range b {
		b[i] = v
	}
}

// int8TileKernel is an int8 tile kernel (kernels.Int8TileKernel).
type int8TileKernel = kernels.Int8TileKernel

// int8Kernels are the kernels this build can run on this CPU, best first,
// whether or not STRATA_ISA lets them; int8Kernel is the one in use
// (kernels.ChooseInt8). A kernel with a Pairs form (the AVX2 one) runs it
// for 7-bit activations (int8KernelFor). Tests swap int8Kernel.
var (
	int8Kernels  = kernels.Int8Kernels
	int8Kernel   = chooseInt8Kernel(kernels.LegacyISAEnv("STRATA_INT8", "go", "avx2", "avx512-vnni"))
	goInt8Kernel = kernels.Int8Go
)

// chooseInt8Kernel is kernels.ChooseInt8.
func chooseInt8Kernel(env string) int8TileKernel { return kernels.ChooseInt8(env) }

// absMaxFast and quantizeFast are the vectorised parts of quantizeActs
// for slices of a multiple of 8 values (nil without them; tests swap them).
var (
	absMaxFast   = kernels.AbsMaxFast
	quantizeFast = kernels.QuantizeFast
)

// int8KernelFor is the kernel in use for activations of scheme sch.
func int8KernelFor(sch actScheme) int8TileKernel {
	if sch.shift == actShift7 && int8Kernel.Pairs != nil {
		return *int8Kernel.Pairs
	}
	return int8Kernel
}

// Int8KernelFor names the int8 kernel products with activations of the
// given width (7 or 8; 0: the default) run on.
func Int8KernelFor(bits int) string {
	if bits == 0 {
		bits = DefaultInt8Bits
	}
	if bits == 7 {
		return int8KernelFor(actScheme{ActQMax7, actShift7}).Name
	}
	return int8Kernel.Name
}

// panelBias is the bias of the output panel [c0, c0+cols) as a whole
// panel, for the tile kernels (int8 and packed float32 alike): bias's own
// values when the panel is whole, else pad holding them and zeros (all
// zeros for a nil bias).
func panelBias(bias []float32, c0, cols int, pad *[panelCols]float32) []float32 {
	if bias != nil && cols == panelCols {
		return bias[c0 : c0+panelCols]
	}
	clear(pad[:])
	if bias != nil {
		copy(pad[:], bias[c0:c0+cols])
	}
	return pad[:]
}
