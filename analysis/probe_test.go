package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// gaussians draws tokens of d features in k classes: fixed class means
// (spread sep) plus unit Gaussian noise; sep 0 is pure noise.
type gaussians struct {
	means [][]float64
	r     *rand.Rand
}

func newGaussians(d, k int, sep float64, seed uint64) *gaussians {
	g := &gaussians{r: rand.New(rand.NewPCG(seed, 1))}
	for c := 0; c < k; c++ {
		m := make([]float64, d)
		for j := range m {
			m[j] = sep * g.r.NormFloat64()
		}
		g.means = append(g.means, m)
	}
	return g
}

func (g *gaussians) draw(n int) (*engine.Tensor, []int32) {
	d := len(g.means[0])
	x := engine.NewTensor(n, d)
	labels := make([]int32, n)
	for i := range labels {
		c := g.r.IntN(len(g.means))
		labels[i] = int32(c)
		for j := 0; j < d; j++ {
			x.Data[i*d+j] = float32(g.means[c][j] + g.r.NormFloat64())
		}
	}
	return x, labels
}

func rows(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// trainProbe trains one probe as LLR does (lr 1e-3, 3 epochs, batches of
// 64 "sentences" of 10 tokens) and returns its accuracy on fresh tokens.
func trainProbe(t *testing.T, sep float64) float64 {
	const d, k, n, batch = 16, 4, 64000, 640
	g := newGaussians(d, k, sep, 1)
	x, y := g.draw(n)
	p, err := NewProbes(1, d, k, 1e-3, 7)
	if err != nil {
		t.Fatal(err)
	}
	idx := rows(n)
	var first, last float64
	for epoch := 0; epoch < 3; epoch++ {
		for lo := 0; lo+batch <= n; lo += batch {
			last = p.Step([]ProbeInput{{X: x, Rows: idx[lo : lo+batch], Labels: y[lo : lo+batch]}})[0]
			if epoch == 0 && lo == 0 {
				first = last
			}
		}
	}
	if sep > 0 && !(last < first/2) {
		t.Errorf("separable data: loss went from %.3f to %.3f; want it at least halved", first, last)
	}
	tx, ty := g.draw(4000)
	c := p.Correct([]ProbeInput{{X: tx, Rows: rows(4000), Labels: ty}})
	return float64(c[0]) / 4000
}

func TestProbeLearnsSeparableLanguages(t *testing.T) {
	if acc := trainProbe(t, 3); acc < 0.99 {
		t.Errorf("accuracy on linearly separable classes %.3f, want ≥ 0.99", acc)
	}
}

func TestProbeOnNoiseIsAtChance(t *testing.T) {
	acc := trainProbe(t, 0)
	// 4 balanced classes: chance is 0.25; 4000 test tokens give a standard
	// error of about 0.007.
	if acc < 0.21 || acc > 0.29 {
		t.Errorf("accuracy on noise %.3f, want about 0.25", acc)
	}
}

func TestProbesAreIndependent(t *testing.T) {
	// Training two probes in one bank must give the same weights as
	// training each alone.
	const d, k = 8, 3
	x, y := newGaussians(d, k, 2, 3).draw(512)
	x2, y2 := newGaussians(d, k, 1, 4).draw(512)
	both, _ := NewProbes(2, d, k, 1e-3, 9)
	for lo := 0; lo < 512; lo += 64 {
		both.Step([]ProbeInput{{X: x, Rows: rows(512)[lo : lo+64], Labels: y[lo : lo+64]},
			{X: x2, Rows: rows(512)[lo : lo+64], Labels: y2[lo : lo+64]}})
	}
	alone, _ := NewProbes(2, d, k, 1e-3, 9) // same initialisation
	for lo := 0; lo < 512; lo += 64 {
		alone.Step([]ProbeInput{{X: x, Rows: rows(512)[lo : lo+64], Labels: y[lo : lo+64]}, {X: x2}})
	}
	for j, v := range alone.w[0].Data {
		if math.Abs(float64(v-both.w[0].Data[j])) > 1e-6 {
			t.Fatalf("probe 0 weight %d: %g trained alone, %g trained with another probe", j, v, both.w[0].Data[j])
		}
	}
}
