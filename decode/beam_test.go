package decode

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// topCandidates equals sorting every (row, token) extension by score,
// stable on (row, token), on rows with ties, -Inf and bases of any size.
func TestTopCandidatesMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const v, rows, k = 50, 4, 10
	for trial := 0; trial < 200; trial++ {
		lp := make([]float32, rows*v)
		for i := range lp {
			switch r.IntN(10) {
			case 0:
				lp[i] = float32(math.Inf(-1))
			case 1:
				lp[i] = -1 // ties
			default:
				lp[i] = -float32(r.Float64() * 20)
			}
		}
		base := []float64{0, -3.5, -1e-9, -40 * r.Float64()}
		got := topCandidates(nil, lp, v, group{start: 0, n: rows}, base, k)
		var all []cand
		for row := 0; row < rows; row++ {
			for j := 0; j < v; j++ {
				x := lp[row*v+j]
				all = append(all, cand{score: base[row] + float64(x), row: row, tok: int32(j), lp: x})
			}
		}
		slices.SortStableFunc(all, func(a, b cand) int { return cmp.Compare(b.score, a.score) })
		if !slices.Equal(got, all[:k]) {
			t.Fatalf("trial %d:\n got %v\nwant %v", trial, got, all[:k])
		}
	}
}
