package backendtest

import (
	"fmt"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// DecodeCase is a decoding op: forward only (the decoding ops record no
// backward pass), run on an inference graph, its outputs compared with the
// reference backend's.
type DecodeCase struct {
	Name string
	Tol  Tol
	// Run computes the op on g from inputs it makes itself (seeded, so
	// every backend gets the same) and returns its outputs.
	Run func(g *engine.Graph) []Output
}

// Output is one named output of a DecodeCase.
type Output struct {
	Name string
	Data []float32
}

func evalDecode(t *testing.T, backend string, threads int, c DecodeCase) []Output {
	t.Helper()
	g := engine.NewInference()
	g.SetThreads(threads)
	if err := g.SetBackend(backend); err != nil {
		t.Fatal(err)
	}
	out := c.Run(g)
	for i := range out {
		out[i].Data = append([]float32(nil), out[i].Data...)
	}
	return out
}

func checkDecode(t *testing.T, backend string, threads int, c DecodeCase) {
	want := evalDecode(t, engine.BackendReference, 1, c)
	got := evalDecode(t, backend, threads, c)
	for i := range want {
		compare(t, want[i].Name, got[i].Data, want[i].Data, c.Tol)
	}
}

// randSlice is n uniform values in [-1, 1).
func randSlice(seed uint64, n int) []float32 {
	r := engine.NewRNG(seed)
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(r.Float64()*2 - 1)
	}
	return out
}

// halvesOf narrows xs to binary16.
func halvesOf(xs []float32) []uint16 {
	out := make([]uint16, len(xs))
	for i, v := range xs {
		out[i] = engine.HalfFromFloat32(v)
	}
	return out
}

// attnShape is a decoding attention's shape: n query rows (hypotheses),
// tk keys per row, heads of width dh.
type attnShape struct{ n, tk, heads, dh int }

func (s attnShape) String() string { return fmt.Sprintf("n%d,tk%d,h%dx%d", s.n, s.tk, s.heads, s.dh) }

// query is n rows of the heads' queries read from column 2 of a wider
// matrix (a view into a fused projection).
func (s attnShape) query() engine.Cols {
	d := s.heads * s.dh
	return engine.Cols{T: engine.FromData(randSlice(21, s.n*(d+2)), s.n, d+2), Col: 2}
}

// cacheLayout is where keys and values sit in a cache row: ld floats per
// row, the key at column 3, the value after it with a gap, so the value
// view's end is the row's.
func cacheLayout(d int) (ld, kcol, vcol int) { return 2*d + 5, 3, d + 4 }

// stepCase is StepAttention over a cache of float32 or halves, in one
// buffer or in pages of 3, 1 and 5 key positions, with key padding (a
// row partly padded, the last row wholly) when pad.
func stepCase(s attnShape, half, paged, pad bool) DecodeCase {
	name := fmt.Sprintf("StepAttention/%v", s)
	if half {
		name += "/f16"
	}
	if paged {
		name += "/pages"
	}
	if pad {
		name += "/pad"
	}
	return DecodeCase{name, TolRow, func(g *engine.Graph) []Output {
		d := s.heads * s.dh
		ld, kcol, vcol := cacheLayout(d)
		// key position j of row i is cache row j·n + (3i+j) mod n: beams
		// reading each other's rows, as after a reordering
		data := randSlice(22, (s.tk+5)*s.n*ld)
		idx := make([]int32, s.n*s.tk)
		for i := 0; i < s.n; i++ {
			for j := 0; j < s.tk; j++ {
				idx[i*s.tk+j] = int32(j*s.n + (3*i+j)%s.n)
			}
		}
		kv := engine.KVRows{LD: ld, KCol: kcol, VCol: vcol, Index: idx}
		if pad {
			kv.Pad = make([]bool, s.n*s.tk)
			for j := 0; j < s.tk; j++ {
				kv.Pad[s.tk+j] = j%4 == 1
				kv.Pad[(s.n-1)*s.tk+j] = true
			}
		}
		if !paged {
			kv.Data = data
			if half {
				kv.Data, kv.Half = nil, halvesOf(data)
			}
		} else {
			kv.Index = make([]int32, len(idx))
			lo := 0
			for _, keys := range []int{3, 1, s.tk} {
				rows := data[lo*s.n*ld : (lo+keys)*s.n*ld]
				pg := engine.KVPage{Data: rows, Keys: keys}
				if half {
					pg = engine.KVPage{Half: halvesOf(rows), Keys: keys}
				}
				kv.Pages = append(kv.Pages, pg)
				for i := 0; i < s.n; i++ {
					for j := lo; j < min(lo+keys, s.tk); j++ {
						kv.Index[i*s.tk+j] = idx[i*s.tk+j] - int32(lo*s.n)
					}
				}
				lo += keys
			}
		}
		ctx, probs := g.StepAttention(s.query(), s.n, s.tk, s.heads, kv)
		return []Output{{"context", ctx.Data}, {"probabilities", probs.Data}}
	}}
}

// blockCase is BlockAttention over four blocks of tk keys: runs of rows on
// one block of 5, 2, 1 and 10 rows (longer than the gathered kernels'
// runs) and 1, block 1 partly padded and block 2 wholly.
func blockCase(s attnShape) DecodeCase {
	var block []int32
	for b, run := range []int{5, 2, 1, 10, 1} {
		for range run {
			block = append(block, int32([]int{0, 2, 1, 3, 0}[b]))
		}
	}
	s.n = len(block)
	return DecodeCase{"BlockAttention/" + s.String(), TolRow, func(g *engine.Graph) []Output {
		const blocks = 4
		d := s.heads * s.dh
		ld, kcol, vcol := cacheLayout(d)
		pad := make([]bool, blocks*s.tk)
		for j := 0; j < s.tk; j++ {
			pad[s.tk+j] = j%3 == 2
			pad[2*s.tk+j] = true
		}
		kv := engine.KVBlocks{Data: randSlice(23, blocks*s.tk*ld), LD: ld, KCol: kcol, VCol: vcol, TK: s.tk, Block: block, Pad: pad}
		ctx, probs := g.BlockAttention(s.query(), s.n, s.heads, kv)
		return []Output{{"context", ctx.Data}, {"probabilities", probs.Data}}
	}}
}

// storeSource is 7 rows of 60 values, written from column 4: float32
// values in [-1, 1), some scaled to the edges of binary16 (near its
// largest value, and into its subnormals).
func storeSource() engine.Cols {
	src := randSlice(24, 7*60)
	for i := range src {
		switch i % 7 {
		case 3:
			src[i] *= 65000
		case 5:
			src[i] *= 1e-5
		}
	}
	return engine.Cols{T: engine.FromData(src, 7, 60), Col: 4}
}

// DecodeCases are the suite's decoding cases: several heads, head widths
// odd and vector-sized, several hypotheses, float32 and float16 caches,
// one buffer and pages, padded keys.
func DecodeCases() []DecodeCase {
	var cs []DecodeCase
	for _, s := range []attnShape{{5, 11, 3, 13}, {6, 9, 2, 32}} {
		for _, half := range []bool{false, true} {
			for _, paged := range []bool{false, true} {
				cs = append(cs, stepCase(s, half, paged, !paged))
			}
		}
		cs = append(cs, stepCase(s, false, true, true), blockCase(attnShape{tk: s.tk, heads: s.heads, dh: s.dh}))
	}
	exact := Tol{} // copies and a rounding every backend must do exactly
	cs = append(cs,
		DecodeCase{"StoreRows", exact, func(g *engine.Graph) []Output {
			dst := make([]float32, 20*50)
			g.StoreRows(dst, 50, 5, storeSource(), 45)
			return []Output{{"cache", dst}}
		}},
		DecodeCase{"StoreRowsHalf", exact, func(g *engine.Graph) []Output {
			dst := make([]uint16, 20*50)
			g.StoreRowsHalf(dst, 50, 5, storeSource(), 45)
			wide := make([]float32, len(dst))
			for i, h := range dst {
				wide[i] = engine.Float32FromHalf(h)
			}
			return []Output{{"cache", wide}}
		}},
		DecodeCase{"LogSoftmaxInPlace", TolRow, func(g *engine.Graph) []Output {
			x := randSlice(25, 17*1003)
			for i := range x {
				x[i] *= 8
				if i%5 == 0 {
					x[i] -= 60 // a shortlist's far-off logits
				}
			}
			return []Output{{"log-probabilities", g.LogSoftmaxInPlace(engine.FromData(x, 17, 1003)).Data}}
		}},
	)
	return cs
}
