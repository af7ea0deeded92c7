package model

import (
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/strata-nmt/strata/engine"
)

// copyBatch is a fixed toy copy-task batch: b sentences of up to n tokens
// over ids [4, vocab), target = source.
func copyBatch(seed uint64, b, n, vocab int) Batch {
	r := rand.New(rand.NewPCG(seed, 1))
	bt := Batch{B: b, S: n, T: n, Src: make([]int32, b*n), TgtIn: make([]int32, b*n), TgtOut: make([]int32, b*n)}
	for i := 0; i < b; i++ {
		l := n - r.IntN(3)
		for j := 0; j < l; j++ {
			w := int32(4 + r.IntN(vocab-4))
			if j == l-1 {
				w = 2
			}
			bt.Src[i*n+j], bt.TgtOut[i*n+j] = w, w
		}
		bt.TgtIn[i*n] = 2
		copy(bt.TgtIn[i*n+1:i*n+l], bt.Src[i*n:i*n+l-1])
	}
	return bt
}

// gradNormTrace trains c for steps Adam updates on a copy task (fixed seeds)
// and returns, for every step, the L2 norm of the gradient of the
// parameters under prefix, taken before that step's update.
func gradNormTrace(t *testing.T, c Config, prefix string, seed uint64, steps int) []float64 {
	t.Helper()
	m, err := New(c, seed)
	if err != nil {
		t.Fatal(err)
	}
	ps := m.Params().List()
	mom, vel := make([][]float32, len(ps)), make([][]float32, len(ps))
	for i, p := range ps {
		mom[i], vel[i] = make([]float32, len(p.Data)), make([]float32, len(p.Data))
	}
	g := engine.NewGraph(seed)
	g.SetThreads(1) // tiny matrices: goroutines cost more than they save
	var trace []float64
	for step := 0; step < steps; step++ {
		bt := copyBatch(seed*1000+uint64(step%4), 6, 8, c.SrcVocab)
		m.Params().ZeroGrad()
		res := Loss(g, m, bt, 0.1)
		g.BackwardScaled(res.Loss, 1/float32(res.Tokens))
		var s float64
		for _, p := range ps {
			if strings.HasPrefix(p.Name, prefix) {
				for _, v := range p.Grad {
					s += float64(v) * float64(v)
				}
			}
		}
		trace = append(trace, math.Sqrt(s))
		g.Reset()
		// Adam (β 0.9/0.98, lr 1e-3 after 5 warm-up steps), written out
		// here because the model package cannot use the trainer.
		lr := 1e-3 * math.Min(1, float64(step+1)/5)
		b1, b2 := 1-math.Pow(0.9, float64(step+1)), 1-math.Pow(0.98, float64(step+1))
		for i, p := range ps {
			for j, gr := range p.Grad {
				mom[i][j] = 0.9*mom[i][j] + 0.1*gr
				vel[i][j] = 0.98*vel[i][j] + 0.02*gr*gr
				mh, vh := float64(mom[i][j])/b1, float64(vel[i][j])/b2
				p.Data[j] -= float32(lr * mh / (math.Sqrt(vh) + 1e-8))
			}
		}
	}
	return trace
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// The paper's Eq. 8 and Figure 5: block-scale collaboration adds a direct
// path from the loss to every block, so the lowest layer of a deep encoder
// keeps receiving gradient once training starts. 36-layer encoder (6 blocks
// of 6) at the tiny preset's widths.
//
// At initialisation a pre-norm stack has no vanishing gradient (the lowest
// layers even get the most), and the one-batch comparison is a coin toss
// (ratios 0.8-1.5 over seeds); the test therefore logs that value but
// asserts on the mean over updates 6-10 of a short training run, the regime
// Figure 5 describes. docs/models-deep.md records the measurements.
func TestBlockScaleBoostsLowestLayerGradient(t *testing.T) {
	c, _ := Preset("msc-36")
	tiny, _ := Preset("tiny")
	c.DModel, c.FFN, c.Heads = tiny.DModel, tiny.FFN, tiny.Heads
	c.SrcVocab, c.TgtVocab = 40, 40
	c.Dropout, c.AttentionDropout = 0, 0
	const lowest, steps = "encoder.blocks.0.layers.0.", 10
	seeds := []uint64{1}
	if os.Getenv("STRATA_GRADNORM_SEEDS") != "" {
		seeds = []uint64{1, 2, 3, 4, 5}
	}
	for _, seed := range seeds {
		off := c
		off.Deep.BlockScale = false
		on, offT := gradNormTrace(t, c, lowest, seed, steps), gradNormTrace(t, off, lowest, seed, steps)
		t.Logf("seed %d ‖∇ lowest encoder layer‖: block-scale on %.4g, off %.4g at init (×%.2f); "+
			"mean over updates 6-%d: on %.4g, off %.4g (×%.2f)", seed, on[0], offT[0], on[0]/offT[0],
			steps, mean(on[5:]), mean(offT[5:]), mean(on[5:])/mean(offT[5:]))
		if mean(on[5:]) <= mean(offT[5:]) {
			t.Errorf("seed %d: block-scale collaboration should enlarge the lowest layer's gradient", seed)
		}
	}
}
