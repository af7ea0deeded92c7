package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// StepAttention over a cache split into pages (KVRows.Pages) gives, bit for
// bit, what it gives over the same rows in one buffer, floats and halves,
// through the AVX2 kernels (head width 32) and the pure-Go ones (width 4).
func TestStepAttentionPages(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, heads := range []int{2, 16} {
		const n, tk, d = 5, 7, 64
		// one buffer: key position j of query i is row j·n + (i+j)%n;
		// pages hold positions [0,3), [3,4) and [4,7) (and beyond)
		one := make([]float32, tk*n*2*d)
		for i := range one {
			one[i] = float32(r.NormFloat64())
		}
		q := NewTensor(n, d)
		for i := range q.Data {
			q.Data[i] = float32(r.NormFloat64())
		}
		idx := make([]int32, n*tk)
		for i := 0; i < n; i++ {
			for j := 0; j < tk; j++ {
				idx[i*tk+j] = int32(j*n + (i+j)%n)
			}
		}
		bounds := []int{0, 3, 4, 9}
		var pages []KVPage
		local := slices.Clone(idx)
		for p := 0; p+1 < len(bounds); p++ {
			lo, hi := bounds[p], min(bounds[p+1], tk)
			page := make([]float32, (bounds[p+1]-lo)*n*2*d)
			copy(page, one[lo*n*2*d:hi*n*2*d])
			pages = append(pages, KVPage{Data: page, Keys: bounds[p+1] - lo})
			for i := 0; i < n; i++ {
				for j := lo; j < hi; j++ {
					local[i*tk+j] -= int32(lo * n)
				}
			}
		}
		g := NewInference()
		want, wantP := g.StepAttention(Cols{T: q}, n, tk, heads, KVRows{Data: one, LD: 2 * d, VCol: d, Index: idx})
		got, gotP := g.StepAttention(Cols{T: q}, n, tk, heads, KVRows{Pages: pages, LD: 2 * d, VCol: d, Index: local})
		if !slices.Equal(got.Data, want.Data) || !slices.Equal(gotP.Data, wantP.Data) {
			t.Fatalf("%d heads: paged attention differs from one buffer's", heads)
		}
		half := make([]uint16, len(one))
		halves(half, one)
		for p := range pages {
			pages[p].Half = make([]uint16, len(pages[p].Data))
			halves(pages[p].Half, pages[p].Data)
			pages[p].Data = nil
		}
		want, _ = g.StepAttention(Cols{T: q}, n, tk, heads, KVRows{Half: half, LD: 2 * d, VCol: d, Index: idx})
		got, _ = g.StepAttention(Cols{T: q}, n, tk, heads, KVRows{Pages: pages, LD: 2 * d, VCol: d, Index: local})
		if !slices.Equal(got.Data, want.Data) {
			t.Fatalf("%d heads: paged attention over halves differs from one buffer's", heads)
		}
		// a row index outside its page, and pages short of tk, are refused
		local[tk-1] = int32((bounds[3] - bounds[2]) * n) // the last page has 5·n rows
		mustPanic(t, "outside", func() {
			g.StepAttention(Cols{T: q}, n, tk, heads, KVRows{Pages: pages, LD: 2 * d, VCol: d, Index: local})
		})
		mustPanic(t, "pages hold", func() {
			g.StepAttention(Cols{T: q}, n, tk, heads, KVRows{Pages: pages[:2], LD: 2 * d, VCol: d, Index: idx})
		})
	}
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, want) {
			t.Fatalf("panic %q, want one saying %q", r, want)
		}
	}()
	f()
}
