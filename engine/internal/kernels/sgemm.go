package kernels

// Float32 products against packed weights: the register-tile kernels
// engine/sgemm_packed.go drives (the layout of the panels is described
// there), their table and the choice among them.

const (
	// F32PanelCols is the outputs of a packed panel.
	F32PanelCols = 16
	// F32TileRows is the activation rows of a tile.
	F32TileRows = 6
)

// F32TileKernel computes tiles consecutive tiles of F32TileRows rows of a
// (lda apart) times one packed panel w of k inputs:
// out[i·ldo+j] = Σ_k a[i·lda+k]·w[k·16+j] + bias[j], i < 6·tiles, j < 16;
// with bias nil, out[i·ldo+j] += Σ_k a[i·lda+k]·w[k·16+j].
type F32TileKernel struct {
	Name string
	Tile func(a []float32, lda int, w []float32, k int, out []float32, ldo int, bias []float32, tiles int)
	// Wide, where not nil, is tile over two adjacent panels at once (w,
	// out and bias 32 columns wide): the same sums, fewer loads per FMA
	Wide func(a []float32, lda int, w []float32, k int, out []float32, ldo int, bias []float32, tiles int)
	// GradW, where not nil, computes training's weight gradients
	GradW *GradWKernel
}

// F32AVX2Name names the AVX2 kernel (sgemm_packed_amd64.go), the one
// STRATA_SGEMM=avx2 picks.
const F32AVX2Name = "avx2+fma (6x16 tile, packed weights)"

// F32Go is the pure-Go kernel; F32BLAS, without a Tile, stands for
// OpenBLAS.
var (
	F32Go   = F32TileKernel{Name: "go (6x16 tile, packed weights)", Tile: TileF32Go, GradW: &GradWGo}
	F32BLAS = F32TileKernel{Name: "openblas sgemm (unpacked)"}
)

// F32Kernels are the packed kernels this build can run with the chosen
// instruction set, best first (AVX-512, AVX2, pure Go).
var F32Kernels = f32Kernels()

// ChooseF32 is the kernel of float32 products: the best of F32Kernels,
// or OpenBLAS where that is the pure-Go one (which never beats it).
// STRATA_SGEMM=avx2 forces the AVX2 kernel (where the CPU has it),
// STRATA_SGEMM=go the pure-Go one, STRATA_SGEMM=blas OpenBLAS.
func ChooseF32() F32TileKernel {
	kern := F32BLAS
	if len(F32Kernels) > 1 { // an assembly kernel: the pure-Go one never beats BLAS
		kern = F32Kernels[0]
	}
	switch LegacyISAEnv("STRATA_SGEMM", "avx2", "go") {
	case "avx2":
		for _, k := range F32Kernels {
			if k.Name == F32AVX2Name {
				kern = k
			}
		}
	case "go":
		kern = F32Go
	case "blas":
		kern = F32BLAS
	}
	return kern
}

// TileF32Go is the pure-Go kernel, the reference the assembly follows
// (which fuses each multiply-add, so results differ in the last bits).
func TileF32Go(a []float32, lda int, w []float32, k int, out []float32, ldo int, bias []float32, tiles int) {
	for t := 0; t < tiles; t++ {
		r := t * F32TileRows
		tileF32Go1(a[r*lda:], lda, w, k, out[r*ldo:], ldo, bias)
	}
}

func tileF32Go1(a []float32, lda int, w []float32, k int, out []float32, ldo int, bias []float32) {
	var acc [F32TileRows][F32PanelCols]float32
	for p := 0; p < k; p++ {
		wk := (*[F32PanelCols]float32)(w[p*F32PanelCols : (p+1)*F32PanelCols])
		for i := 0; i < F32TileRows; i++ {
			ai := a[i*lda+p]
			for j := range wk {
				acc[i][j] += ai * wk[j]
			}
		}
	}
	for i := 0; i < F32TileRows; i++ {
		o := out[i*ldo : i*ldo+F32PanelCols]
		for j := range o {
			if bias == nil {
				o[j] += acc[i][j]
			} else {
				o[j] = acc[i][j] + bias[j]
			}
		}
	}
}
