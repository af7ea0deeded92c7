package kernels

import "strings"

// Int8 products against packed, per-row quantized weights: the tile
// kernels engine/int8.go drives (the scheme and the panel layout are
// described there), their table and the choice among them.

const (
	// Int8PanelCols is the outputs of a packed panel (two 8-lane int32
	// vectors), Int8TileRows the activation rows of a tile.
	Int8PanelCols = 16
	Int8TileRows  = 4
)

// Int8TileKernel computes tiles consecutive tiles of Int8TileRows activation
// rows × Int8PanelCols outputs: out[i·ldo+j] = float32(Σ_k a[i·lda+k]·w[j][k]
// − comp[j]) · (scale[j]·sa[i]) + bias[j] for i < Int8TileRows·tiles, where a
// holds shifted activations and w is a packed panel of k4 groups.
type Int8TileKernel struct {
	Name string
	Tile func(a []uint8, lda int, w []int8, k4 int, out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int)
	// Pairs, where set, is the kernel's faster form for 7-bit
	// activations (two groups' int16 sums added before widening)
	Pairs *Int8TileKernel
	// Needs, where set, is the guard (doc.go) that lets it run
	Needs *bool
}

// Allowed reports whether the instruction set chosen at start-up lets k
// run.
func (k Int8TileKernel) Allowed() bool { return k.Needs == nil || *k.Needs }

// Int8Kernels are the kernels this build can run on this CPU, best first,
// whether or not STRATA_ISA lets them (the tests compare them all;
// ChooseInt8 keeps to the chosen set).
var Int8Kernels = int8Kernels()

// Int8Go is the pure-Go kernel.
var Int8Go = Int8TileKernel{Name: "go", Tile: TileInt8Go}

// AbsMaxFast and QuantizeFast are the vectorised parts of the engine's
// activation quantizer for slices of a multiple of 8 values (nil without
// them).
var AbsMaxFast, QuantizeFast = quantizeKernels()

// ChooseInt8 picks the kernel STRATA_INT8 (env) names by the first
// word of its name ("go", "avx2", "avx512-vnni"), to force a slower one for
// comparisons; the best one the chosen instruction set allows when env is
// empty, unknown or not allowed here (`strata env` shows which is in use).
func ChooseInt8(env string) Int8TileKernel {
	for _, k := range Int8Kernels {
		if id, _, _ := strings.Cut(k.Name, " "); env != "" && id == env && k.Allowed() {
			return k
		}
	}
	for _, k := range Int8Kernels {
		if k.Allowed() {
			return k
		}
	}
	return Int8Go
}

// TileInt8Go is the pure-Go kernel (the reference the assembly follows
// operation for operation, so both give bit-identical floats).
func TileInt8Go(a []uint8, lda int, w []int8, k4 int, out []float32, ldo int, comp []int32, scale, sa, bias []float32, tiles int) {
	for t := 0; t < tiles; t++ {
		r := t * Int8TileRows
		tileInt8Go1(a[r*lda:], lda, w, k4, out[r*ldo:], ldo, comp, scale, sa[r:], bias)
	}
}

func tileInt8Go1(a []uint8, lda int, w []int8, k4 int, out []float32, ldo int, comp []int32, scale, sa, bias []float32) {
	var acc [Int8TileRows][Int8PanelCols]int32
	for g := 0; g < k4; g++ {
		blk := w[g*Int8PanelCols*4 : (g+1)*Int8PanelCols*4]
		for i := 0; i < Int8TileRows; i++ {
			a4 := a[i*lda+4*g : i*lda+4*g+4]
			a0, a1, a2, a3 := int32(a4[0]), int32(a4[1]), int32(a4[2]), int32(a4[3])
			for j := 0; j < Int8PanelCols; j++ {
				w4 := blk[4*j : 4*j+4]
				acc[i][j] += a0*int32(w4[0]) + a1*int32(w4[1]) + a2*int32(w4[2]) + a3*int32(w4[3])
			}
		}
	}
	for i := 0; i < Int8TileRows; i++ {
		for j := 0; j < Int8PanelCols; j++ {
			s := scale[j] * sa[i]
			out[i*ldo+j] = float32(float32(acc[i][j]-comp[j])*s) + bias[j]
		}
	}
}
