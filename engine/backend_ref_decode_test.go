package engine

import (
	"math"
	"testing"
)

// refHalf, the reference backend's rounding to binary16 from the format's
// definition, agrees with the engine's conversion on a sweep of float32
// bit patterns (every sign, exponent and a spread of mantissas) and on the
// edges: the largest half, the ties either side of overflow and of the
// subnormal range, the smallest subnormal and half of it.
func TestRefHalfMatchesConversion(t *testing.T) {
	check := func(f float32) {
		got, want := refHalf(f), HalfFromFloat32(f)
		if f != f {
			if got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
				t.Fatalf("refHalf(NaN) = %#04x, not a NaN", got)
			}
			return
		}
		if got != want {
			t.Fatalf("refHalf(%g [%#08x]) = %#04x, HalfFromFloat32 gives %#04x", f, math.Float32bits(f), got, want)
		}
	}
	for b := uint64(0); b < 1<<32; b += 4093 {
		check(math.Float32frombits(uint32(b)))
	}
	for _, f := range []float64{0, 65504, 65519.99, 65520, 65536, 1e9, 0x1p-24, 0x1p-25, 0x1.8p-25, 0x1.8p-24,
		0x1p-14, 0x1.ffcp-15, 0x1.ffep-15, 0x1.fffp-15, 1 + 0x1p-11, 1 + 0x3p-11, math.Inf(1)} {
		check(float32(f))
		check(float32(-f))
	}
}

// countingBackend counts the decoding calls that reach it.
type countingBackend struct {
	Backend
	calls map[string]int
}

func (c countingBackend) StepAttention(q []float32, ldq, n, tk, heads, dh int, kv KVRows, ctx, probs []float32) {
	c.calls["StepAttention"]++
	c.Backend.StepAttention(q, ldq, n, tk, heads, dh, kv, ctx, probs)
}

func (c countingBackend) BlockAttention(q []float32, ldq, n, heads, dh int, kv KVBlocks, ctx, probs []float32) {
	c.calls["BlockAttention"]++
	c.Backend.BlockAttention(q, ldq, n, heads, dh, kv, ctx, probs)
}

func (c countingBackend) StoreRows(dst []float32, ld, first int, src []float32, lds, n, width int) {
	c.calls["StoreRows"]++
	c.Backend.StoreRows(dst, ld, first, src, lds, n, width)
}

func (c countingBackend) StoreRowsHalf(dst []uint16, ld, first int, src []float32, lds, n, width int) {
	c.calls["StoreRowsHalf"]++
	c.Backend.StoreRowsHalf(dst, ld, first, src, lds, n, width)
}

func (c countingBackend) LogSoftmaxInPlace(x []float32, n, v int) {
	c.calls["LogSoftmaxInPlace"]++
	c.Backend.LogSoftmaxInPlace(x, n, v)
}

// The decoding ops compute through the graph's backend, once per op, and
// the reference backend's values have their closed forms: one query over
// two keys with scores 0 and ln 3 (after the 1/√2 scaling) weighs them ¼
// and ¾; a fully padded row is zeros; a stored row is the source's.
func TestDecodingThroughBackend(t *testing.T) {
	for _, name := range []string{BackendCPU, BackendReference} {
		g := NewInference()
		if err := g.SetBackend(name); err != nil {
			t.Fatal(err)
		}
		calls := map[string]int{}
		g.be = countingBackend{g.be, calls}
		ln3 := float32(math.Log(3) * math.Sqrt2)
		q := FromData([]float32{0, 1, 0, 0}, 2, 2) // query 1 is padded out
		// rows: key (2 floats) then value (2 floats)
		cache := []float32{5, 0, 1, 2, 0, ln3, 3, 6}
		ctx, probs := g.StepAttention(Cols{T: q}, 2, 2, 1, KVRows{Data: cache, LD: 4, VCol: 2,
			Index: []int32{0, 1, 1, 0}, Pad: []bool{false, false, true, true}})
		want := []float32{0.25*1 + 0.75*3, 0.25*2 + 0.75*6, 0, 0}
		for i, w := range want {
			if math.Abs(float64(ctx.Data[i]-w)) > 1e-6 {
				t.Fatalf("%s: ctx %v, want %v", name, ctx.Data, want)
			}
		}
		if math.Abs(float64(probs.Data[1])-0.75) > 1e-7 || probs.Data[2] != 0 || probs.Data[3] != 0 {
			t.Fatalf("%s: probs %v, want [¼ ¾ 0 0]", name, probs.Data)
		}
		g.BlockAttention(Cols{T: q}, 2, 1, KVBlocks{Data: cache, LD: 4, VCol: 2, TK: 2, Block: []int32{0, 0}})
		dst, half := make([]float32, 6), make([]uint16, 4)
		g.StoreRows(dst, 2, 1, Cols{T: q, Col: 1}, 1)
		g.StoreRowsHalf(half, 2, 0, Cols{T: q}, 2)
		if dst[2] != 1 || Float32FromHalf(half[1]) != 1 {
			t.Fatalf("%s: stored %v and %v", name, dst, half)
		}
		g.LogSoftmaxInPlace(q)
		for _, op := range []string{"StepAttention", "BlockAttention", "StoreRows", "StoreRowsHalf", "LogSoftmaxInPlace"} {
			if calls[op] != 1 {
				t.Errorf("%s: %s reached the backend %d times, want once", name, op, calls[op])
			}
		}
	}
}
