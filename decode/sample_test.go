package decode

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/strata-nmt/strata/engine"
	"github.com/strata-nmt/strata/model"
)

func samplingOptions(n int, s Sampling) Options {
	o := testOptions(1)
	o.NBest, o.Sampling = n, s
	o.Sampling.On = true
	return o
}

func TestSamplingTopKOneIsGreedy(t *testing.T) {
	m := tinyModel(t, model.NormPre, 4)
	eosBias(m, 2.5)
	srcs := randomSources(10, 5)
	o := testOptions(1)
	o.Greedy = true
	greedy := search(t, m, o, srcs, startPrefix)
	sampled := search(t, m, samplingOptions(1, Sampling{TopK: 1, Seed: 3}), srcs, startPrefix)
	for i := range srcs {
		sameHyps(t, fmt.Sprintf("sentence %d", i), sampled[i], greedy[i])
	}
}

// Samples depend on the seed and the source, not on the batch; each is
// scored as teacher forcing scores it.
func TestSamplingIsReproducibleAndBatchIndependent(t *testing.T) {
	m := tinyModel(t, model.NormPre, 4)
	eosBias(m, 2.0)
	srcs := randomSources(8, 6)
	o := samplingOptions(3, Sampling{Seed: 11})
	batch := search(t, m, o, srcs, startPrefix)
	differ := false
	for i := range srcs {
		alone := search(t, m, o, srcs[i:i+1], startPrefix)[0]
		sameHyps(t, fmt.Sprintf("sentence %d alone", i), alone, batch[i])
		if len(batch[i]) != 3 {
			t.Fatalf("sentence %d: %d samples, want 3", i, len(batch[i]))
		}
		for _, h := range batch[i][1:] {
			differ = differ || !slices.Equal(h.Tokens, batch[i][0].Tokens)
		}
		tf, err := Score(engine.NewInference(), m, [][]int32{srcs[i]}, startPrefix, [][]int32{batch[i][0].Tokens})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(tf[0].LogProb-batch[i][0].LogProb) > 1e-3 {
			t.Fatalf("sentence %d: sampled log-probability %.5f, teacher forcing %.5f", i, batch[i][0].LogProb, tf[0].LogProb)
		}
	}
	if !differ {
		t.Fatal("three samples per sentence were all identical: not sampling")
	}
	o.Sampling.Seed = 12
	other := search(t, m, o, srcs, startPrefix)
	same := true
	for i := range srcs {
		same = same && slices.Equal(other[i][0].Tokens, batch[i][0].Tokens)
	}
	if same {
		t.Fatal("seeds 11 and 12 drew the same outputs")
	}
}

// drawToken's frequencies follow the (tempered, cut) distribution.
func TestDrawTokenDistribution(t *testing.T) {
	inf := float32(math.Inf(-1))
	row := []float32{float32(math.Log(0.5)), float32(math.Log(0.3)), inf, float32(math.Log(0.2))}
	cases := []struct {
		name string
		o    Sampling
		want []float64
	}{
		{"plain", Sampling{}, []float64{0.5, 0.3, 0, 0.2}},
		{"top-k 2", Sampling{TopK: 2}, []float64{0.625, 0.375, 0, 0}},
		{"top-p 0.6", Sampling{TopP: 0.6}, []float64{0.625, 0.375, 0, 0}},
		{"top-p 0.4", Sampling{TopP: 0.4}, []float64{1, 0, 0, 0}},
		{"temperature 0.5", Sampling{Temperature: 0.5}, []float64{0.25 / 0.38, 0.09 / 0.38, 0, 0.04 / 0.38}},
	}
	const draws = 40000
	for _, c := range cases {
		rng := rand.New(rand.NewPCG(1, 2))
		counts := make([]float64, len(row))
		work, idx := make([]float64, len(row)), make([]int, len(row))
		for i := 0; i < draws; i++ {
			counts[drawToken(row, c.o, rng, work, idx)]++
		}
		for j, w := range c.want {
			// 5 standard deviations of a binomial share, at least 1e-9
			tol := 5*math.Sqrt(w*(1-w)/draws) + 1e-9
			if got := counts[j] / draws; math.Abs(got-w) > tol {
				t.Errorf("%s: token %d drawn %.4f of the time, want %.4f ± %.4f", c.name, j, got, w, tol)
			}
		}
	}
	blocked := []float32{inf, inf}
	if tok := drawToken(blocked, Sampling{}, rand.New(rand.NewPCG(1, 2)), make([]float64, 2), make([]int, 2)); tok != -1 {
		t.Fatalf("all tokens blocked: drew %d, want -1", tok)
	}
}

// The heaps behind the top-k and top-p cuts give exactly the first k tokens
// of a stable descending sort, in that order, ties included.
func TestCutsMatchStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		v := 1 + rng.IntN(60)
		row := make([]float32, v)
		for j := range row {
			row[j] = float32(rng.IntN(8)) // few values: many ties
		}
		all := make([]int, v)
		for j := range all {
			all[j] = j
		}
		want := slices.Clone(all)
		slices.SortStableFunc(want, func(a, b int) int { return cmp.Compare(row[b], row[a]) })
		k := 1 + rng.IntN(v)
		if got := topKOrdered(row, slices.Clone(all), k); !slices.Equal(got, want[:k]) {
			t.Fatalf("top-k: row %v, k=%d: got %v, want %v", row, k, got, want[:k])
		}
		n := 0
		if got := bestFirst(row, slices.Clone(all), func(int) bool { n++; return n == k }); !slices.Equal(got, want[:k]) {
			t.Fatalf("best-first: row %v, k=%d: got %v, want %v", row, k, got, want[:k])
		}
	}
}

// The cuts over a vocabulary-sized row of a peaked distribution: top-k 10,
// top-p 0.9, and the stable sort of the whole row both replaced (the
// reference).
func BenchmarkCut(b *testing.B) {
	const v = 10613
	rng := rand.New(rand.NewPCG(5, 6))
	row := make([]float32, v)
	var total float64
	for j := range row {
		row[j] = float32(3 * rng.NormFloat64())
		total += math.Exp(float64(row[j]))
	}
	idx := make([]int, v)
	fill := func() {
		for j := range idx {
			idx[j] = j
		}
	}
	b.Run("topk10-heap", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			fill()
			topKOrdered(row, idx, 10)
		}
	})
	b.Run("topp0.9-heap", func(b *testing.B) {
		popped := 0
		for i := 0; i < b.N; i++ {
			fill()
			var acc float64
			popped += len(bestFirst(row, idx, func(j int) bool { acc += math.Exp(float64(row[j])); return acc >= 0.9*total }))
		}
		b.ReportMetric(float64(popped)/float64(b.N), "tokens/op")
	})
	b.Run("stable-sort", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			fill()
			slices.SortStableFunc(idx, func(a, c int) int { return cmp.Compare(row[c], row[a]) })
		}
	})
}

func TestSamplingOptionsValidate(t *testing.T) {
	bad := []Options{
		samplingOptions(1, Sampling{TopK: -1}),
		samplingOptions(1, Sampling{TopP: 1.5}),
		samplingOptions(1, Sampling{Temperature: -1}),
		samplingOptions(0, Sampling{}),
	}
	g := samplingOptions(1, Sampling{})
	g.Greedy = true
	bad = append(bad, g)
	for i, o := range bad {
		if o.Validate() == nil {
			t.Errorf("case %d: %+v accepted", i, o.Sampling)
		}
	}
	if err := samplingOptions(8, Sampling{TopK: 10, TopP: 0.9, Temperature: 0.7}).Validate(); err != nil {
		t.Errorf("8 samples, beam 1: %v", err)
	}
}
