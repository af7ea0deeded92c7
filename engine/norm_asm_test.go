package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// LayerNorm's row arithmetic in AVX2 equals the Go loops bit for bit:
// rowStats, lnRowDx and normAffineRow on rows with and without a tail past
// a multiple of 4 (of 8), and the whole op's outputs and gradients.
func TestNormRowsMatchGo(t *testing.T) {
	if !normAsm {
		t.Skip("no AVX2: LayerNorm runs the Go loops only")
	}
	defer func() { normAsm = true }()
	r := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{1, 3, 4, 5, 8, 13, 256, 259} {
		xs, ds, hs, gs := randVec(r, d), randVec(r, d), randVec(r, d), randVec(r, d)
		for i := range xs {
			xs[i] = xs[i]*3 + 7 // a mean away from 0
		}
		var mean, rstd [2]float64
		var dx, ys [2][]float32
		for k, asm := range []bool{true, false} {
			normAsm = asm
			mean[k], rstd[k] = rowStats(xs)
			dx[k] = append([]float32(nil), ds...) // dx accumulates onto something
			lnRowDx(dx[k], ds, hs, gs, make([]float32, d), 0.37)
			ys[k] = make([]float32, d)
			normAffineRow(ys[k], xs, 7.1, 0.37, gs, hs)
		}
		sameBits(t, "normAffineRow", [][]float32{ys[0]}, [][]float32{ys[1]})
		if math.Float64bits(mean[0]) != math.Float64bits(mean[1]) || math.Float64bits(rstd[0]) != math.Float64bits(rstd[1]) {
			t.Fatalf("d=%d: rowStats asm (%v, %v), Go (%v, %v)", d, mean[0], rstd[0], mean[1], rstd[1])
		}
		sameBits(t, "lnRowDx", [][]float32{dx[0]}, [][]float32{dx[1]})
	}
	rr := NewRNG(8)
	x, gain, bias := param(rr, "x", 19, 70), param(rr, "gain", 70), param(rr, "bias", 70)
	in := []*Tensor{x, gain, bias}
	ln := func(g *Graph) *Tensor { return g.LayerNorm(x, gain, bias) }
	normAsm = true
	asm := runChain(2, in, ln)
	normAsm = false
	goLoops := runChain(2, in, ln)
	sameBits(t, "LayerNorm", asm, goLoops)
}
