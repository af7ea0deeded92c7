package engine

import "testing"

// StepAttention over keys scattered through a cache must equal Attention
// over the same keys laid out contiguously (one query per batch element).
func TestStepAttentionMatchesAttention(t *testing.T) {
	r := NewRNG(5)
	const n, tk, d, h, slots = 3, 4, 8, 2, 5
	q := param(r, "q", n, d)
	k, v := param(r, "k", n*tk, d), param(r, "v", n*tk, d)
	pad := make([]bool, n*tk)
	pad[tk-1], pad[2*tk+1] = true, true

	// Scatter key j of query i into cache row j·slots + perm(i), with K and
	// V side by side, the way the decoder's step cache stores them.
	cache := make([]float32, tk*slots*2*d)
	idx := make([]int32, n*tk)
	for i := 0; i < n; i++ {
		for j := 0; j < tk; j++ {
			row := j*slots + (i*2+j)%slots
			idx[i*tk+j] = int32(row)
			copy(cache[row*2*d:], k.Data[(i*tk+j)*d:(i*tk+j+1)*d])
			copy(cache[row*2*d+d:], v.Data[(i*tk+j)*d:(i*tk+j+1)*d])
		}
	}
	g := NewInference()
	want, wantP := g.Attention(Cols{q, 0}, Cols{k, 0}, Cols{v, 0}, n, 1, tk, AttnOptions{Heads: h, KeyPad: pad})
	got, gotP := g.StepAttention(Cols{q, 0}, n, tk, h, KVRows{Data: cache, LD: 2 * d, KCol: 0, VCol: d, Index: idx, Pad: pad})
	sameValues(t, "ctx", got.Data, want.Data, "Attention")
	sameValues(t, "probs", gotP.Data, wantP.Data, "Attention")
	if gotP.Data[tk-1] != 0 {
		t.Fatalf("padded key got weight %v", gotP.Data[tk-1])
	}
}

// sameValues fails unless got equals want, computed by ref, to 1e-6.
func sameValues(t *testing.T, what string, got, want []float32, ref string) {
	t.Helper()
	for i := range want {
		if !near(float64(got[i]), float64(want[i]), 1e-6) {
			t.Fatalf("%s[%d] = %v, %s gives %v", what, i, got[i], ref, want[i])
		}
	}
}

// The last query row of causal self-attention is what one decoding step
// computes from a cache holding the earlier keys.
func TestStepAttentionIsLastCausalRow(t *testing.T) {
	r := NewRNG(6)
	const tq, d, h = 5, 12, 3
	qkv := param(r, "qkv", tq, 3*d)
	g := NewInference()
	full, _ := g.Attention(Cols{qkv, 0}, Cols{qkv, d}, Cols{qkv, 2 * d}, 1, tq, tq, AttnOptions{Heads: h, Causal: true})
	for step := 0; step < tq; step++ {
		idx := make([]int32, step+1)
		for j := range idx {
			idx[j] = int32(j)
		}
		row := FromData(qkv.Data[step*3*d:(step+1)*3*d], 1, 3*d)
		got, _ := g.StepAttention(Cols{row, 0}, 1, step+1, h, KVRows{Data: qkv.Data, LD: 3 * d, KCol: d, VCol: 2 * d, Index: idx})
		for c := 0; c < d; c++ {
			if w := full.Data[step*d+c]; !near(float64(got.Data[c]), float64(w), 1e-6) {
				t.Fatalf("step %d col %d: %v, causal attention gives %v", step, c, got.Data[c], w)
			}
		}
	}
}

func TestStepAttentionRejectsBadIndex(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("an index outside the cache was accepted")
		}
	}()
	g := NewInference()
	q := NewTensor(1, 4)
	g.StepAttention(Cols{q, 0}, 1, 1, 1, KVRows{Data: make([]float32, 8), LD: 8, VCol: 4, Index: []int32{1}})
}

// BlockAttention must equal StepAttention over the same keys found through
// a per-key index, for runs of rows sharing a block, a block read by two
// separate runs, a single-row run and padded keys.
func TestBlockAttentionMatchesStepAttention(t *testing.T) {
	r := NewRNG(9)
	const blocks, tk, d, h = 3, 4, 8, 2
	block := []int32{0, 0, 2, 2, 2, 1, 0}
	n := len(block)
	q := param(r, "q", n, 3*d) // read from a column view, as a fused projection
	mem := param(r, "mem", blocks*tk, 2*d)
	pad := make([]bool, blocks*tk)
	pad[tk-1], pad[2*tk+1], pad[2*tk+2] = true, true, true
	idx := make([]int32, n*tk)
	rowPad := make([]bool, n*tk)
	for i, b := range block {
		for j := 0; j < tk; j++ {
			idx[i*tk+j] = b*tk + int32(j)
			rowPad[i*tk+j] = pad[int(b)*tk+j]
		}
	}
	g := NewInference()
	want, wantP := g.StepAttention(Cols{q, d}, n, tk, h, KVRows{Data: mem.Data, LD: 2 * d, VCol: d, Index: idx, Pad: rowPad})
	got, gotP := g.BlockAttention(Cols{q, d}, n, h, KVBlocks{Data: mem.Data, LD: 2 * d, VCol: d, TK: tk, Block: block, Pad: pad})
	if len(got.Data) != len(want.Data) || len(gotP.Data) != len(wantP.Data) {
		t.Fatalf("shapes %v %v, want %v %v", got.Shape(), gotP.Shape(), want.Shape(), wantP.Shape())
	}
	sameValues(t, "ctx", got.Data, want.Data, "StepAttention")
	sameValues(t, "probs", gotP.Data, wantP.Data, "StepAttention")
	if p := gotP.Data[2*h*tk+1]; p != 0 { // row 2 reads block 2, key 1 padded
		t.Fatalf("padded key got weight %v", p)
	}
}

func TestBlockAttentionRejectsBadBlock(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a block outside the memory was accepted")
		}
	}()
	q := NewTensor(1, 4)
	g := NewInference()
	g.BlockAttention(Cols{q, 0}, 1, 1, KVBlocks{Data: make([]float32, 8), LD: 8, VCol: 4, TK: 1, Block: []int32{1}})
}

func TestStoreRows(t *testing.T) {
	src := FromData([]float32{1, 2, 3, 4, 5, 6}, 2, 3)
	dst := make([]float32, 4*2)
	g := NewInference()
	g.StoreRows(dst, 2, 1, Cols{T: src, Col: 1}, 2)
	want := []float32{0, 0, 2, 3, 5, 6, 0, 0}
	for i := range want {
		if dst[i] != want[i] {
			t.Fatalf("dst = %v, want %v", dst, want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Fatal("rows past the end of dst were accepted")
		}
	}()
	g.StoreRows(dst, 2, 3, Cols{T: src, Col: 1}, 2)
}
