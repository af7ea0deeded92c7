package engine

import (
	"fmt"
	"math"
	"sync"

	"github.com/strata-nmt/strata/engine/internal/kernels"
)

// Float32 inference products against a fixed weight matrix, y = x·Wᵀ + b,
// with W packed once into panels for a register-tiled kernel.
//
// Why not OpenBLAS: decoding multiplies a few beam rows (5-160) by the same
// weights at every step, and OpenBLAS's sgemm repacks the weight operand on
// every call (sgemm_incopy, 12-13% of a decoding profile): with so few rows
// the repacking is not amortised, and OpenBLAS has no packed-weight API
// (MKL's cblas_sgemm_pack, which CTranslate2 uses, is what this mirrors).
// Training packs its changing weights for each product instead
// (linear_train.go).
//
// Layout: panel p holds weight rows (outputs) [16p, 16p+16); within it, for
// each input k, the 16 values W[16p+j][k], j = 0..15 (64 bytes), so one
// step of the AVX2 kernel loads two 8-lane vectors (the AVX-512 one a
// single 16-lane vector) and multiplies them by one broadcast activation
// per row. Missing rows of the last panel are zero.
// The kernels compute tiles of f32TileRows activation rows × 16 outputs:
// the AVX2 one with 12 accumulator registers (6×16), the shape that keeps
// both FMA pipes of an AVX2 core busy with 16 vector registers; the
// AVX-512 one takes two tiles at a time (12×16, one ZMM accumulator per
// row) to have as many sums in flight.

const (
	f32PanelCols = kernels.F32PanelCols // 16, as the int8 panels: panelBias serves both
	f32TileRows  = kernels.F32TileRows
)

// PackedF32 is a weight matrix (Rows outputs × Cols inputs) packed for the
// float32 inference kernel, with a fingerprint of the data it was packed
// from.
type PackedF32 struct {
	Rows, Cols int
	panels     []float32 // panels·Cols·16 values
	fp         weightPrint
}

// weightPrint identifies the contents a pack was made from: the backing
// array, its length and a hash of a fixed sample of its values. It catches
// a weight replaced or rewritten as a whole (an optimizer step, a loaded
// checkpoint, averaging) at the cost of a few hundred loads per product;
// code that edits a few values in place calls Tensor.WeightsChanged.
type weightPrint struct {
	ptr  *float32
	n    int
	hash uint64
}

// printRuns runs of printRun consecutive values are hashed, spread evenly
// over the matrix: few cache lines (the check runs on every product, and a
// weight that is not in cache costs a miss per line).
const (
	printRuns = 16
	printRun  = 4
)

func printOf(w []float32) weightPrint {
	p := weightPrint{n: len(w), hash: 14695981039346656037}
	if len(w) == 0 {
		return p
	}
	p.ptr = &w[0]
	mix := func(v float32) { p.hash = (p.hash ^ uint64(math.Float32bits(v))) * 1099511628211 }
	for r := 0; r < printRuns; r++ {
		at := r * len(w) / printRuns
		for _, v := range w[at:min(at+printRun, len(w))] {
			mix(v)
		}
	}
	// the last value too: a sample that misses the tail would not see a
	// re-sliced weight
	mix(w[len(w)-1])
	return p
}

// PackF32 packs the rows×cols row-major matrix w.
func PackF32(w []float32, rows, cols int) *PackedF32 {
	if len(w) != rows*cols {
		panic(fmt.Sprintf("engine.PackF32: %d values for %d×%d", len(w), rows, cols))
	}
	np := (rows + f32PanelCols - 1) / f32PanelCols
	p := &PackedF32{Rows: rows, Cols: cols, panels: make([]float32, np*cols*f32PanelCols), fp: printOf(w)}
	packPanels(p.panels, w, rows, cols, 0, np)
	return p
}

// numPanels is the number of 16-row panels.
func (p *PackedF32) numPanels() int { return (p.Rows + f32PanelCols - 1) / f32PanelCols }

// Bytes is the memory the packed copy holds.
func (p *PackedF32) Bytes() int { return 4 * len(p.panels) }

var packMu sync.Mutex

// packedOf returns w's packed form, packing on first use and again when the
// fingerprint shows the data changed (once, even when several graphs decode
// with the same model concurrently).
func packedOf(w *Tensor) *PackedF32 {
	fp := printOf(w.Data)
	if p := w.f32p.Load(); p != nil && p.fp == fp {
		return p
	}
	packMu.Lock()
	defer packMu.Unlock()
	if p := w.f32p.Load(); p != nil && p.fp == fp {
		return p
	}
	p := PackF32(w.Data, w.shape[0], w.shape[1])
	w.f32p.Store(p)
	return p
}

// WeightsChanged drops the packed copy of the tensor's values that float32
// inference products keep (they repack on next use). The fingerprint
// already catches whole-matrix updates; call it after editing a few values
// in place.
func (t *Tensor) WeightsChanged() { t.f32p.Store(nil) }

// linearPacked is Linear's inference path on the packed kernel:
// y = x·Wᵀ + b.
func (g *Graph) linearPacked(kern f32TileKernel, x, w, b, y *Tensor) {
	var bias []float32
	if b != nil {
		bias = b.Data
	}
	n, in, out := x.Rows(), x.Cols(), w.Dim(0)
	// traced as the product OpenBLAS would have made, so that a floor
	// replay (bench/decode --gemm-floor) still counts it
	traceGemm(GemmCall{false, true, n, out, in, in, in, out, true})
	g.packedProduct(kern, x.Data, n, packedOf(w), bias, y.Data)
}

// packedProduct sets y (n×p.Rows) to a·Wᵀ + bias for a (n×p.Cols,
// row-major) and bias nil for none. The rows go in blocks of
// packedBlockTiles(k) tiles, and each block meets every panel before the
// next block starts: the block's rows stay in the L2 cache while the panels
// stream past (the panel-major order read all of a once per panel, which
// made a 4096-row training product run at half the core's peak). The
// (block, panel) pairs (block, pair of panels where the kernel has a
// two-panel loop) are split over the graph's threads; each output is
// computed by the same kernel call whatever the thread count or the block
// size, so results depend on neither.
func (g *Graph) packedProduct(kern f32TileKernel, a []float32, n int, p *PackedF32, bias []float32, y []float32) {
	g.packedRun(kern, a, p.Cols, n, p, bias, y, false)
}

// packedRun is packedProduct, or with add set adds a·Wᵀ to y (a gradient
// accumulating; bias unused);
// a's rows are lda floats apart (lda >= p.Cols: a may be a column block of
// a wider matrix).
func (g *Graph) packedRun(kern f32TileKernel, a []float32, lda, n int, p *PackedF32, bias []float32, y []float32, add bool) {
	out, k := p.Rows, p.Cols
	if n == 0 || out == 0 || (add && k == 0) {
		return
	}
	if k == 0 {
		for r := 0; r < n; r++ {
			if bias != nil {
				copy(y[r*out:(r+1)*out], bias)
			} else {
				clear(y[r*out : (r+1)*out])
			}
		}
		return
	}
	full := n / f32TileRows
	rest := n - full*f32TileRows
	// the last rows padded to a whole tile with zeros, shared read-only
	var tail []float32
	tiles := full
	if rest > 0 {
		tail = g.arena.get(f32TileRows * k)[:f32TileRows*k]
		for r := 0; r < rest; r++ {
			src := a[(full*f32TileRows+r)*lda:]
			copy(tail[r*k:(r+1)*k], src[:k])
		}
		clear(tail[rest*k:])
		tiles++
	}
	rb := packedBlockTiles(k, tiles)
	blocks, np := (tiles+rb-1)/rb, p.numPanels()
	// a unit of work is a row block times span panels: two where the
	// kernel has a two-panel loop, except for rows 4 KiB apart (their
	// lines share one L1 set; the one-panel kernel's 6-row loop takes them)
	span := 1
	if kern.Wide != nil && lda%1024 != 0 {
		span = 2
	}
	groups := (np + span - 1) / span
	g.parallel(blocks*groups, span*rb*f32TileRows*k*f32PanelCols, func(_, lo, hi int) {
		var tile [f32TileRows * f32PanelCols]float32
		var bpad [f32PanelCols]float32
		var zeros [2 * f32PanelCols]float32
		// panel does panel pi's share of row block [t0, t0+rb): its
		// whole tiles [t0, t1) unless done, then the padded last rows
		panel := func(pi, t0, t1 int, done bool) {
			c0, cols := pi*f32PanelCols, min(f32PanelCols, out-pi*f32PanelCols)
			var bp []float32 // nil: the kernel adds to its output
			if !add {
				bp = panelBias(bias, c0, cols, &bpad)
			}
			wp := p.panels[pi*k*f32PanelCols : (pi+1)*k*f32PanelCols]
			// a tile of fewer rows or columns goes through tile[]
			part := func(t int, src []float32, rows, lds int) {
				if add {
					loadTile(tile[:], y[t*f32TileRows*out+c0:], out, rows, cols)
				}
				kern.Tile(src, lds, wp, k, tile[:], f32PanelCols, bp, 1)
				copyTile(y[t*f32TileRows*out+c0:], out, tile[:], rows, cols)
			}
			switch {
			case done:
			case t1 > t0 && cols == f32PanelCols:
				kern.Tile(a[t0*f32TileRows*lda:], lda, wp, k, y[t0*f32TileRows*out+c0:], out, bp, t1-t0)
			default:
				for t := t0; t < t1; t++ {
					part(t, a[t*f32TileRows*lda:], f32TileRows, lda)
				}
			}
			if rest > 0 && full < t0+rb && full >= t0 {
				part(full, tail, rest, k)
			}
		}
		for u := lo; u < hi; u++ {
			t0, p0 := (u/groups)*rb, (u%groups)*span
			t1 := min(t0+rb, full) // whole tiles of this block: [t0, t1)
			p1 := min(p0+span, np)
			wide := p1-p0 == 2 && out-p0*f32PanelCols >= 2*f32PanelCols && t1 > t0
			if wide { // the whole tiles of both panels in one pass
				c0 := p0 * f32PanelCols
				var bp []float32
				if !add {
					bp = zeros[:]
					if bias != nil {
						bp = bias[c0 : c0+2*f32PanelCols]
					}
				}
				kern.Wide(a[t0*f32TileRows*lda:], lda, p.panels[p0*k*f32PanelCols:p1*k*f32PanelCols], k,
					y[t0*f32TileRows*out+c0:], out, bp, t1-t0)
			}
			for pi := p0; pi < p1; pi++ {
				panel(pi, t0, t1, wide)
			}
		}
	})
	if tail != nil {
		g.arena.recycle(tail)
	}
}

// packedBlockTiles is the tiles of a row block of packedProduct for k
// inputs and tiles tiles in all: as many as keep the block's rows within
// about 192 KB (Zen 3 and Skylake-X have 512 KB-1 MB of L2 per core, which
// must hold a panel and the outputs' lines too), at most 16 (96 rows,
// enough to amortise the panel's trip from L2). Past 1,024 inputs a panel
// (64 KB and more) is the operand to keep in cache, and a block is all the
// rows: the panel-major order, each panel meeting every row in turn.
func packedBlockTiles(k, tiles int) int {
	const budget = 192 << 10
	if k > packedMaxK {
		return max(tiles, 1)
	}
	return max(1, min(16, budget/(4*f32TileRows*k)))
}

// loadTile sets a 16-wide tile to rows×cols of y (rows ldy apart) and
// zeros elsewhere.
func loadTile(tile, y []float32, ldy, rows, cols int) {
	clear(tile)
	for i := 0; i < rows; i++ {
		copy(tile[i*f32PanelCols:i*f32PanelCols+cols], y[i*ldy:i*ldy+cols])
	}
}

// copyTile copies rows×cols of a 16-wide tile into y (rows ldy apart).
func copyTile(y []float32, ldy int, tile []float32, rows, cols int) {
	for i := 0; i < rows; i++ {
		copy(y[i*ldy:i*ldy+cols], tile[i*f32PanelCols:i*f32PanelCols+cols])
	}
}

// f32TileKernel is a packed float32 kernel (kernels.F32TileKernel).
type f32TileKernel = kernels.F32TileKernel

// f32Kernels are the packed kernels this build can run with the chosen
// instruction set, best first; f32Kernel is the one inference Linear and
// training's products use (kernels.ChooseF32: a nil Tile means OpenBLAS).
// Tests swap it to run every kernel.
var (
	f32Kernels = kernels.F32Kernels
	f32Kernel  = kernels.ChooseF32()
)

// F32Kernel names the kernel of float32 inference products (Linear on
// non-recording graphs).
func F32Kernel() string { return f32Kernel.Name }
